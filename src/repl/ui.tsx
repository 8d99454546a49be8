// The interactive REPL in the terminal (ink): the log scrolls above, written once
// (<Static>), and only the prompt and the status line are redrawn — the status at
// most ten times a second — so a breathing world costs little to show.
import React, { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Box, Static, Text, render, useApp, useInput, useStdout, type Key } from 'ink';
import chalk from 'chalk';
import type { ReplSession } from './session.ts';
import { LineEditor } from './editor.ts';
import { stamp, type LogEntry, type LogKind } from './events.ts';
import { statusFields, type StatusField, type StatusInfo } from './status.ts';
import { colourWanted } from '../oracle/diff.ts';
import { spawnSync } from 'node:child_process';
import { Interrupter } from './interrupt.ts';

/** Status and log refresh period. */
export const REFRESH_MS = 100;
/** Most world events (prints, loops, walks…) written per refresh; a flood beyond that is summarised. */
export const MAX_ENTRIES_PER_REFRESH = 200;
/** What the REPL says in answer to the author is never left out, however much arrives at once. */
const ANSWERS: ReadonlySet<LogKind> = new Set<LogKind>(['input', 'echo', 'output', 'info', 'error', 'warning']);
/** Most characters one paste (input arriving without a pause) may bring; the rest is refused. */
export const MAX_PASTE_CHARS = 16_384;
/** A pause this long between two pieces of input ends a paste (a terminal that does not mark pastes). */
const PASTE_GAP_MS = 150;
/**
 * Bracketed paste: the terminal marks where a paste starts and ends, so what is typed
 * behind it is never taken for more of it, however late the REPL reads either. Ink
 * hands each mark over without its escape.
 */
const PASTE_MODE_ON = '\u001b[?2004h';
const PASTE_MODE_OFF = '\u001b[?2004l';
const PASTE_START = '[200~';
const PASTE_END = '[201~';
/** Two Ctrl-C presses within this many ms quit. */
export const DOUBLE_CTRL_C_MS = 1000;

const COLOURS: Partial<Record<LogKind, string>> = {
  echo: 'greenBright',
  error: 'red',
  warning: 'yellow',
  info: 'gray',
  input: 'white',
  loop: 'cyan',
  walk: 'green',
  sound: 'magenta',
  set: 'blue',
  click: 'yellowBright',
  event: 'gray',
  time: 'blueBright',
};

/** In front of what a replay of the past prints again. */
export const PAST_MARK = '↺ ';

interface Batch {
  id: number;
  entries: LogEntry[];
}

function LogLine({ entry }: { entry: LogEntry }): React.ReactElement {
  const colour = COLOURS[entry.kind];
  return (
    <Text>
      {entry.past ? <Text color="magenta">{PAST_MARK}</Text> : null}
      {entry.t !== undefined ? <Text dimColor>{stamp(entry.t).padStart(10)} </Text> : null}
      <Text color={colour} bold={entry.kind === 'print'}>
        {entry.text}
      </Text>
    </Text>
  );
}

// memoised: a status refresh must not re-render the log or the prompt
const LogBatch = React.memo(function LogBatch({ batch }: { batch: Batch }): React.ReactElement {
  // a new key makes a new <Static>, which writes exactly these entries once
  return (
    <Static key={batch.id} items={batch.entries}>
      {(e, i) => <LogLine key={i} entry={e} />}
    </Static>
  );
});

// one plain Text, redrawn ten times a second, so it is cheap to lay out; a narrow
// terminal breaks it between fields, never inside one
function StatusLine({ fields, paused, past, width }: { fields: StatusField[]; paused: boolean; past: boolean; width: number }): React.ReactElement {
  return (
    <Text color={past ? 'magenta' : paused ? 'yellow' : 'cyan'}>
      {packFields(
        fields.map((f) => `${f.label} ${f.value}`),
        width,
      )}
    </Text>
  );
}

export function packFields(parts: string[], width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const p of parts) {
    if (line !== '' && line.length + 2 + p.length > width) {
      lines.push(line);
      line = p;
    } else line = line === '' ? p : `${line}  ${p}`;
  }
  if (line !== '') lines.push(line);
  return lines.join('\n');
}

function Prompt({ prompt, editor }: { prompt: string; editor: LineEditor }): React.ReactElement {
  const v = editor.value;
  const c = editor.cursor;
  const under = editor.atCursor === '' ? ' ' : editor.atCursor;
  return (
    <Text>
      <Text color="gray">{prompt}</Text>
      {v.slice(0, c)}
      {/* inverse video is no colour: under NO_COLOR the cursor is drawn by hand, chalk drawing nothing */}
      {cursorByHand ? `\x1b[7m${under}\x1b[27m` : <Text inverse>{under}</Text>}
      {v.slice(c + under.length)}
    </Text>
  );
}

/** Set when NO_COLOR turned chalk off in a terminal. */
let cursorByHand = false;

/** Keeps what the author asked for and caps the world's own events; returns the entries to show and how many were left out. */
export function capEntries(entries: readonly LogEntry[], max = MAX_ENTRIES_PER_REFRESH): { shown: LogEntry[]; left: number } {
  let world = entries.filter((e) => !ANSWERS.has(e.kind)).length;
  if (world <= max) return { shown: entries.slice(), left: 0 };
  const left = world - max;
  // the latest world events are kept, in order among the answers
  const shown = entries.filter((e) => ANSWERS.has(e.kind) || world-- <= max);
  return { shown, left };
}

/** The real terminal around the app (tests render it without one). */
export interface Terminal {
  /** Where SIGINT and SIGTERM come from: the process. */
  signals: {
    on(signal: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
    off(signal: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
  };
  /** SIGTERM: the REPL ends. */
  terminated(): void;
}

export function ReplApp({ session, terminal }: { session: ReplSession; terminal?: Terminal }): React.ReactElement {
  const { exit } = useApp();
  const { stdout } = useStdout();
  const editor = useRef(new LineEditor()).current;
  const grouper = session.lines;
  const pending = useRef<LogEntry[]>([]);
  const dropped = useRef(0);
  const lastCtrlC = useRef(0);
  const paste = useRef({ at: 0, size: 0, refused: false, marked: false });
  const [batch, setBatch] = useState<Batch>({ id: 0, entries: [] });
  /** The batch last drawn: a flush before the next draw adds to the batch not drawn yet instead of replacing it. */
  const drawn = useRef(0);
  useLayoutEffect(() => {
    drawn.current = batch.id;
  }, [batch]);
  const [status, setStatus] = useState(() => session.statusInfo());
  const [, setEdits] = useState(0);
  const redrawPrompt = (): void => setEdits((n) => n + 1);

  const flush = useCallback(() => {
    const info = session.statusInfo();
    setStatus((old) => (sameStatus(old, info) ? old : info));
    if (pending.current.length === 0) return;
    const { shown, left } = capEntries(pending.current);
    pending.current = [];
    let entries = shown;
    dropped.current += left;
    if (dropped.current > 0) {
      entries = [{ kind: 'info', text: `… ${dropped.current} more events not shown (:filter narrows the log)` }, ...entries];
      dropped.current = 0;
    }
    // several flushes before one draw (the lines of a paste): every entry is drawn, in order
    setBatch((b) => ({ id: b.id + 1, entries: b.id === drawn.current ? entries : [...b.entries, ...entries] }));
  }, [session]);

  useEffect(() => {
    const off = session.onLog((e) => pending.current.push(e));
    pending.current.push({ kind: 'info', text: 'Pocketwatch REPL — type a statement or an expression; :help lists commands and builtins; Ctrl-C twice quits' });
    session.onQuit(() => exit());
    session.start();
    flush();
    const timer = setInterval(flush, REFRESH_MS);
    return () => {
      off();
      clearInterval(timer);
    };
  }, [session, flush, exit]);

  const log = (e: LogEntry): void => {
    pending.current.push(e);
  };

  const submitLine = (line: string): void => {
    log({ kind: 'input', text: (grouper.pending ? '... ' : 'pw> ') + line });
    session.enter(line);
    flush();
  };

  /** Text typed or pasted; a paste past MAX_PASTE_CHARS is refused from there on, with one message. */
  const insertText = (input: string): void => {
    const now = Date.now();
    const p = paste.current;
    if (!p.marked && now - p.at > PASTE_GAP_MS) Object.assign(p, { size: 0, refused: false });
    p.at = now;
    p.size += input.length;
    if (p.size > MAX_PASTE_CHARS) {
      if (!p.refused) log({ kind: 'error', text: `pasted text over ${MAX_PASTE_CHARS.toLocaleString('en-US')} characters: the rest of it was not taken. Put long code in a file and :load it.` });
      p.refused = true;
      editor.clear();
      grouper.clear();
      flush();
      return;
    }
    // pasted text (or keys sent in one burst) may hold several lines
    const parts = input.split(/\r\n|\r|\n/);
    parts.forEach((part, i) => {
      editor.insert(part.replace(/[\x00-\x1f\x7f]/g, ''));
      if (i < parts.length - 1) submitLine(editor.take());
    });
  };

  /** Ctrl-D: quits at an empty prompt, else deletes the character under the cursor. */
  const onCtrlD = (): void => {
    if (editor.value === '' && !grouper.pending) session.quit();
    else editor.deleteForward();
  };

  /** Ctrl-C (the key, or SIGINT). */
  const onCtrlC = (): void => {
    const now = Date.now();
    if (now - lastCtrlC.current < DOUBLE_CTRL_C_MS) {
      session.quit();
      return;
    }
    lastCtrlC.current = now;
    const hadText = editor.value !== '' || grouper.pending;
    editor.clear();
    grouper.clear();
    const stopped = session.interrupt();
    if (stopped === 0) log({ kind: 'info', text: hadText ? 'input cleared; Ctrl-C again quits' : 'no script running; press Ctrl-C again (or Ctrl-D) to quit' });
    flush();
    redrawPrompt();
  };

  // Ctrl-C and SIGTERM never wait on a script for longer than a frame's slice (see interrupt.ts)
  // biome-ignore lint/correctness/useExhaustiveDependencies: bound once per terminal; the handlers read only the editor, the grouper and refs, which last
  useEffect(() => {
    if (!terminal) return;
    const onSigint = (): void => onCtrlC();
    const onSigterm = (): void => {
      terminal.terminated();
      session.quit();
    };
    session.onBrokenInto = () => flush();
    terminal.signals.on('SIGINT', onSigint);
    terminal.signals.on('SIGTERM', onSigterm);
    return () => {
      terminal.signals.off('SIGINT', onSigint);
      terminal.signals.off('SIGTERM', onSigterm);
      session.onBrokenInto = null;
    };
    // onCtrlC reads refs only: the first one serves for good
  }, [terminal, session]);

  useInput((input: string, key: Key) => {
    if (input === PASTE_START || input === PASTE_END) {
      // a marked paste is one paste, from its start to its end; what follows is typed
      Object.assign(paste.current, { at: 0, size: 0, refused: false, marked: input === PASTE_START });
      return;
    }
    // the rest of a marked paste refused: its line breaks too
    if (paste.current.marked && paste.current.refused && !key.ctrl) return;
    if (key.ctrl && input === 'c') return onCtrlC();
    if (key.ctrl && input === 'd') onCtrlD();
    else if (key.return) submitLine(editor.take());
    else if (key.upArrow) editor.up();
    else if (key.downArrow) editor.down();
    else if (key.leftArrow) editor.left();
    else if (key.rightArrow) editor.right();
    else if (key.home || (key.ctrl && input === 'a')) editor.home();
    else if (key.end || (key.ctrl && input === 'e')) editor.end();
    else if (key.backspace || key.delete) editor.backspace();
    else if (key.ctrl && input === 'u') editor.killToStart();
    else if (key.ctrl && input === 'k') editor.killToEnd();
    else if (key.ctrl && input === 'w') editor.deleteWordBack();
    else if (key.ctrl || key.meta || key.escape || key.tab) return;
    else if (!paste.current.marked && /[\x03\x04]/.test(input)) {
      // keys that came in one read with text typed before them (a busy REPL reads what is
      // typed in bursts): Ctrl-C and Ctrl-D still act, in their place
      for (const part of input.split(/([\x03\x04])/)) {
        if (part === '\x03') onCtrlC();
        else if (part === '\x04') onCtrlD();
        else if (part !== '') insertText(part);
      }
    } else insertText(input);
    redrawPrompt();
  });

  return (
    <Box flexDirection="column">
      <LogBatch batch={batch} />
      <Prompt prompt={grouper.pending ? '... ' : 'pw> '} editor={editor} />
      <StatusLine fields={statusFields(status)} paused={status.paused} past={status.pastMs != null} width={Math.max(20, (stdout.columns || 80) - 1)} />
    </Box>
  );
}

function sameStatus(a: StatusInfo, b: StatusInfo): boolean {
  const fa = statusFields(a);
  const fb = statusFields(b);
  return fa.every((f, i) => f.value === fb[i].value) && a.paused === b.paused;
}

/**
 * Ctrl-C as a signal: the terminal sends SIGINT, answered between frames as a `kill -INT`
 * from outside is (interrupt.ts), one way for both. Raw mode turns that off, each time ink
 * sets it; this turns it back on (and Ctrl-Z and Ctrl-\\ off, so they neither suspend nor
 * kill the REPL). Node puts the terminal back as it found it when the process ends.
 */
function ctrlCAsSignal(): void {
  const stdin = process.stdin;
  const setRawMode = stdin.setRawMode.bind(stdin);
  const isig = (): void => void spawnSync('stty', ['isig', 'susp', 'undef', 'quit', 'undef'], { stdio: ['inherit', 'ignore', 'ignore'] });
  stdin.setRawMode = (mode: boolean) => {
    setRawMode(mode);
    if (mode) isig();
    return stdin;
  };
  if (stdin.isRaw) isig();
}

/** Runs the interactive REPL until the author quits; resolves with the exit code. */
export async function runInteractive(session: ReplSession): Promise<number> {
  // NO_COLOR (and FORCE_COLOR) as everywhere else in pw: ink draws with chalk, which reads neither
  if (!colourWanted(true)) {
    chalk.level = 0;
    cursorByHand = true;
  }
  const interrupter = new Interrupter();
  session.guard = (run) => interrupter.run(run);
  let terminated = false;
  const terminal: Terminal = {
    signals: process,
    terminated: () => (terminated = true),
  };
  ctrlCAsSignal();
  process.stdout.write(PASTE_MODE_ON);
  const app = render(<ReplApp session={session} terminal={terminal} />, { exitOnCtrlC: false, patchConsole: false });
  try {
    await app.waitUntilExit();
  } finally {
    process.stdout.write(PASTE_MODE_OFF);
    session.close();
  }
  return terminated ? 128 + 15 : 0;
}
