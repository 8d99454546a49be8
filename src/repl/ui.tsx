// The interactive REPL in the terminal (ink): the log scrolls above, written once
// (<Static>), and only the prompt and the status line are redrawn — the status at
// most ten times a second — so a breathing world costs little to show.
import React, { useCallback, useEffect, useRef, useState } from 'react';
import { Box, Static, Text, render, useApp, useInput, useStdout, type Key } from 'ink';
import type { ReplSession } from './session.ts';
import { LineEditor } from './editor.ts';
import { LineGrouper } from './input.ts';
import { stamp, type LogEntry, type LogKind } from './events.ts';
import { statusFields, statusInfo, type StatusField } from './status.ts';

/** Status and log refresh period. */
export const REFRESH_MS = 100;
/** Most log entries written per refresh; a flood beyond that is summarised. */
export const MAX_ENTRIES_PER_REFRESH = 40;
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

interface Batch {
  id: number;
  entries: LogEntry[];
}

function LogLine({ entry }: { entry: LogEntry }): React.ReactElement {
  const colour = COLOURS[entry.kind];
  return (
    <Text>
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
function StatusLine({ fields, paused, width }: { fields: StatusField[]; paused: boolean; width: number }): React.ReactElement {
  return <Text color={paused ? 'yellow' : 'cyan'}>{packFields(fields.map((f) => `${f.label} ${f.value}`), width)}</Text>;
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
  const under = editor.atCursor;
  return (
    <Text>
      <Text color="gray">{prompt}</Text>
      {v.slice(0, c)}
      <Text inverse>{under === '' ? ' ' : under}</Text>
      {v.slice(c + under.length)}
    </Text>
  );
}

export function ReplApp({ session }: { session: ReplSession }): React.ReactElement {
  const { exit } = useApp();
  const { stdout } = useStdout();
  const editor = useRef(new LineEditor()).current;
  const grouper = useRef(new LineGrouper()).current;
  const pending = useRef<LogEntry[]>([]);
  const dropped = useRef(0);
  const lastCtrlC = useRef(0);
  const [batch, setBatch] = useState<Batch>({ id: 0, entries: [] });
  const [status, setStatus] = useState(() => statusInfo(session.world));
  const [, setEdits] = useState(0);
  const redrawPrompt = (): void => setEdits((n) => n + 1);

  const flush = useCallback(() => {
    const info = statusInfo(session.world);
    setStatus((old) => (sameStatus(old, info) ? old : info));
    if (pending.current.length === 0) return;
    let entries = pending.current;
    pending.current = [];
    if (entries.length > MAX_ENTRIES_PER_REFRESH) {
      dropped.current += entries.length - MAX_ENTRIES_PER_REFRESH;
      entries = entries.slice(-MAX_ENTRIES_PER_REFRESH);
    }
    if (dropped.current > 0) {
      entries = [{ kind: 'info', text: `… ${dropped.current} more events not shown (:filter narrows the log)` }, ...entries];
      dropped.current = 0;
    }
    setBatch((b) => ({ id: b.id + 1, entries }));
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
    const group = grouper.push(line);
    if (group !== null) session.submit(group.text, group.parsed);
    flush();
  };

  const onCtrlC = (): void => {
    const now = Date.now();
    if (now - lastCtrlC.current < DOUBLE_CTRL_C_MS) {
      session.quit();
      return;
    }
    lastCtrlC.current = now;
    const hadText = editor.value !== '' || grouper.pending;
    editor.clear();
    grouper.reset();
    const stopped = session.interrupt();
    if (stopped === 0) log({ kind: 'info', text: hadText ? 'input cleared; Ctrl-C again quits' : 'no script running; press Ctrl-C again (or Ctrl-D) to quit' });
    flush();
  };

  useInput((input: string, key: Key) => {
    if (key.ctrl && input === 'c') return onCtrlC();
    if (key.ctrl && input === 'd') {
      if (editor.value === '' && !grouper.pending) session.quit();
      else editor.deleteForward();
    } else if (key.return) submitLine(editor.take());
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
    else {
      // pasted text (or keys sent in one burst) may hold several lines
      const parts = input.split(/\r\n|\r|\n/);
      parts.forEach((part, i) => {
        editor.insert(part.replace(/[\x00-\x1f\x7f]/g, ''));
        if (i < parts.length - 1) submitLine(editor.take());
      });
    }
    redrawPrompt();
  });

  return (
    <Box flexDirection="column">
      <LogBatch batch={batch} />
      <Prompt prompt={grouper.pending ? '... ' : 'pw> '} editor={editor} />
      <StatusLine fields={statusFields(status)} paused={status.paused} width={Math.max(20, (stdout.columns || 80) - 1)} />
    </Box>
  );
}

function sameStatus(a: ReturnType<typeof statusInfo>, b: ReturnType<typeof statusInfo>): boolean {
  const fa = statusFields(a);
  const fb = statusFields(b);
  return fa.every((f, i) => f.value === fb[i].value) && a.paused === b.paused;
}

/** Runs the interactive REPL until the author quits; resolves with the exit code. */
export async function runInteractive(session: ReplSession): Promise<number> {
  const app = render(<ReplApp session={session} />, { exitOnCtrlC: false, patchConsole: false });
  try {
    await app.waitUntilExit();
  } finally {
    session.close();
  }
  return 0;
}
