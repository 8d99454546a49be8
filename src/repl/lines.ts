// The plain line mode, used when stdin is not a terminal: the same REPL, fed line by
// line. Each complete statement or block runs in the live world, which keeps running
// in real time until the threads it started are done; then the next one runs.
// Prints, echoes and command output go to stdout, errors to stderr.
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { ReplSession } from './session.ts';
import { stamp, type LogEntry } from './events.ts';
import type { Sink } from '../node/terminal.ts';

export interface LineModeIO {
  input: Readable;
  out: Sink;
  err: Sink;
}

const POLL_MS = 10;

/** Runs the whole of `input`; resolves with the exit code (1 if any script error happened). */
export async function runLineMode(session: ReplSession, io: LineModeIO): Promise<number> {
  const { out, err } = io;
  session.onLog((e) => write(e, out, err));
  session.start();
  const rl = createInterface({ input: io.input, crlfDelay: Infinity, terminal: false });
  try {
    for await (const line of rl) {
      if (session.quitRequested) break;
      session.enter(line);
      if (session.lines.pending) continue;
      await settle(session, out);
      if (session.quitRequested) break;
    }
    if (!session.quitRequested && session.lines.pending) {
      // the input ended inside a block: running it reports what was left open
      session.submit(session.lines.reset());
      await settle(session, out);
    }
  } finally {
    rl.close();
    session.close();
    out.flush();
    err.flush();
  }
  return session.errorCount > 0 ? 1 : 0;
}

/** Lets the world run until no thread started from the REPL is alive (a paused world, or one in the past, cannot finish them). */
function settle(session: ReplSession, out: Sink): Promise<void> {
  out.flush();
  return new Promise((resolve) => {
    const check = (): void => {
      out.flush();
      if (!session.foregroundAlive() || session.held || session.quitRequested) resolve();
      else setTimeout(check, POLL_MS);
    };
    check();
  });
}

function write(e: LogEntry, out: Sink, err: Sink): void {
  switch (e.kind) {
    case 'print':
    case 'echo':
    case 'output':
      out.line(e.text);
      return;
    case 'error':
    case 'warning':
      out.flush();
      err.line(e.text);
      err.flush();
      return;
    case 'info':
    case 'input':
      return; // chatter for people at a terminal; scripts want only the output
    default:
      out.line(e.t === undefined ? e.text : `${stamp(e.t)} ${e.text}`);
  }
}
