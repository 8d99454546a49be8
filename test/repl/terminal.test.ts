// The interactive REPL in a real terminal: the built CLI in a child process on a
// pseudo-terminal (util-linux `script`), driven by keys and signals as an author would.
import { describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const PW = fileURLToPath(new URL('../../dist/pw.js', import.meta.url));
const hasScript = process.platform === 'linux' && spawnSync('script', ['--version']).status === 0;

interface Terminal {
  child: ChildProcess;
  /** Everything the REPL drew so far. */
  output(): string;
  keys(text: string): void;
  /** Waits until the output has `text` (after `from`); false if it never comes. */
  shows(text: string | RegExp, from?: number, ms?: number): Promise<boolean>;
  /** The REPL's own process (script's child). */
  pid(): number;
  exited(ms: number): Promise<number | null | 'running'>;
  /** Ends the REPL and the terminal, whatever state they are in. */
  kill(): void;
}

/** What `print (6 * 7)` prints in the log (game time, then the text, each in its style): not the status line's frame 142 or 14.2 s. */
const PRINTED_42 = /\d\.\d{3}s (\u001b\[[0-9;]*m)*42\b/;

function terminal(args: string[], env: Record<string, string | undefined> = {}): Terminal {
  const clean: Record<string, string | undefined> = { ...process.env, FORCE_COLOR: undefined, NO_COLOR: undefined, ...env };
  // ink draws only the last frame when it believes it runs in CI; a person at a terminal sees every frame
  for (const key of Object.keys(clean)) if (key === 'CI' || key === 'CONTINUOUS_INTEGRATION' || key.startsWith('CI_')) delete clean[key];
  const child = spawn('script', ['-qfec', `stty cols 160 rows 40; exec "${process.execPath}" "${PW}" repl ${args.join(' ')}`, '/dev/null'], {
    env: clean as NodeJS.ProcessEnv,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString('utf8')));
  let code: number | null | undefined;
  child.on('exit', (c) => (code = c));
  const wait = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
  return {
    child,
    output: () => out,
    keys: (text) => void child.stdin!.write(text),
    async shows(text, from = 0, ms = 15_000) {
      const seen = (): boolean => (typeof text === 'string' ? out.slice(from).includes(text) : text.test(out.slice(from)));
      const end = Date.now() + ms;
      while (!seen() && Date.now() < end && code === undefined) await wait(25);
      return seen();
    },
    pid: () => Number(readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/)[0]),
    async exited(ms) {
      const end = Date.now() + ms;
      while (code === undefined && Date.now() < end) await wait(25);
      return code === undefined ? 'running' : code;
    },
    kill() {
      // a REPL that ignored its signals would outlive the terminal: end it first
      try {
        if (code === undefined) process.kill(this.pid(), 'SIGKILL');
      } catch {
        // already gone
      }
      child.kill('SIGKILL');
    },
  };
}

const LOOP = 'while true endwhile\r';
const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Waits for the REPL to draw its status line (it has the keyboard then), and starts the loop. */
async function startLoop(t: Terminal): Promise<number> {
  expect(await t.shows('clock running', t.output().length)).toBe(true);
  const from = t.output().length;
  t.keys(LOOP);
  // the loop gets a slice of each frame: the REPL goes on drawing its status line (waited for, not a fixed
  // pause: on a loaded machine the first frames come late)
  const end = Date.now() + 15_000;
  while (new Set(framesShown(t, from)).size < 3 && Date.now() < end) await pause(25);
  return from;
}

/** Whether the REPL said the looping thread was stopped (by Ctrl-C between frames: the thread was paused at its slice's end). */
async function stopped(t: Terminal, from: number, again?: () => void): Promise<boolean> {
  const said = (): boolean => /stopped 1 thread started from the REPL/.test(t.output().slice(from));
  // on a machine loaded far past its cores a keypress can be lost in the terminal: the
  // author presses again, past the double-press window (docs/decisions.md)
  for (let attempt = 0; attempt < 2 && !said(); attempt++) {
    if (attempt > 0) again?.();
    const end = Date.now() + 4000;
    while (!said() && Date.now() < end) await pause(25);
  }
  return said();
}

/** The frame numbers the status line showed since `from`. */
function framesShown(t: Terminal, from: number): number[] {
  return [
    ...t
      .output()
      .slice(from)
      .matchAll(/frame (\d+)/g),
  ].map((m) => Number(m[1]));
}

describe.runIf(hasScript)('the REPL in a real terminal, while a script loops without yielding', () => {
  it('Ctrl-C stops the script, and the REPL answers the next line', async () => {
    const t = terminal(['--loop-guard', '0']);
    try {
      const from = await startLoop(t);
      const frames = framesShown(t, from);
      expect(frames.length, t.output().slice(from)).toBeGreaterThan(2);
      expect(frames[frames.length - 1]).toBeGreaterThan(frames[0]);
      t.keys('\u0003');
      expect(await stopped(t, from, () => t.keys('\u0003')), t.output().slice(from)).toBe(true);
      t.keys('print (6 * 7)\r');
      expect(await t.shows(PRINTED_42, from)).toBe(true);
      t.keys('\u0004');
      // (a lost keypress again: a second Ctrl-D, which quits as well)
      if ((await t.exited(5000)) === 'running') t.keys('\u0004');
      expect(await t.exited(10_000)).toBe(0);
    } finally {
      t.kill();
    }
  });

  it('SIGINT from outside stops the script too; SIGTERM ends the REPL', async () => {
    const t = terminal(['--loop-guard', '0']);
    try {
      const from = await startLoop(t);
      const repl = t.pid();
      process.kill(repl, 'SIGINT');
      // (on a loaded machine the signal can land while the REPL is busy: sent again, past the double-press window, as an author would)
      expect(await stopped(t, from, () => process.kill(repl, 'SIGINT')), t.output().slice(from)).toBe(true);
      await startLoop(t);
      process.kill(t.pid(), 'SIGTERM');
      expect(await t.exited(8000)).toBe(143);
    } finally {
      t.kill();
    }
  });

  it('NO_COLOR draws the REPL without colour', async () => {
    const colour = /\u001b\[(3\d|9\d|1;3\d)m/;
    for (const [env, coloured] of [
      [{}, true],
      [{ NO_COLOR: '1' }, false],
    ] as const) {
      const t = terminal([], env);
      try {
        expect(await t.shows('clock running')).toBe(true);
        t.keys('print (1)\r');
        expect(await t.shows('pw> print (1)')).toBe(true);
        expect(colour.test(t.output()), JSON.stringify(env)).toBe(coloured);
        t.keys('\u0004');
        expect(await t.exited(10_000)).toBe(0);
      } finally {
        t.kill();
      }
    }
  });
});

describe.runIf(hasScript)('the REPL in a real terminal, after a huge paste', () => {
  it('turns on bracketed paste, and a line typed right behind a paste too big to take is answered', async () => {
    const t = terminal([]);
    try {
      expect(await t.shows('clock running')).toBe(true);
      // the terminal is asked to mark pastes
      expect(t.output()).toContain('\u001b[?2004h');
      const from = t.output().length;
      const notes = Array.from({ length: 2000 }, (_, i) => `-- note ${i}: ${'x'.repeat(90)}\r`).join('');
      // 200 KB marked as a paste, and a line typed behind it: they reach the REPL back to back
      t.keys(`\u001b[200~${notes}\u001b[201~print (6 * 7)\r`);
      expect(await t.shows('pasted text over', from, 30_000), t.output().slice(from).slice(-2000)).toBe(true);
      expect(await t.shows(PRINTED_42, from, 30_000), t.output().slice(from).slice(-2000)).toBe(true);
      t.keys('\u0004');
      // (a lost keypress again: a second Ctrl-D, which quits as well)
      if ((await t.exited(5000)) === 'running') t.keys('\u0004');
      expect(await t.exited(10_000), t.output().slice(-1500)).toBe(0);
      // and puts the terminal back
      expect(t.output()).toContain('\u001b[?2004l');
    } finally {
      t.kill();
    }
  });
});
