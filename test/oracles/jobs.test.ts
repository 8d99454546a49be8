// pw check --jobs and --shard: a parallel run reports exactly what a serial one does
// (order, diffs, exit code; only times differ), and the shards of a suite hold every
// oracle once, in order. The runs with worker threads are the built CLI (dist/pw.js,
// whose workers run the same file) in a child process; the rest run in this process.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pwHere, pwProcess, type PwRun } from '../support/cli.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const here = join(root, 'test', 'oracles');

// --update writes only outside CI
const plainEnv = { FORCE_COLOR: undefined, NO_COLOR: undefined, CI: undefined };

/** `pw ARGS…` in this process, in the folder cwd. */
function run(args: string[], cwd: string): Promise<PwRun> {
  return pwHere(args, cwd, { env: plainEnv });
}

/** `pw ARGS…` by the built pw in a child process: with --jobs, its worker threads. */
function runBuilt(args: string[], cwd: string): PwRun {
  const env = { ...process.env };
  for (const k of Object.keys(plainEnv)) delete env[k];
  return pwProcess(args, cwd, { env });
}

/** The report without its timings, which are all that may differ between runs. */
const untimed = (text: string) => text.replace(/[\d.]+ (ms|s)\)/g, '… $1)');
const reports = (text: string) =>
  untimed(text)
    .split('\n')
    .filter((l) => l !== '' && !/^\d+ oracles?\b/.test(l));

let tmp: string;
let names: string[];
/** `pw check oracles` one at a time, on the suite in tmp: what every other run is held to. */
let serial: PwRun;

/** A copy of the project's oracles in DIR/oracles: two of them broken, and one that cannot run. */
function suite(dir: string): string[] {
  const to = join(dir, 'oracles');
  mkdirSync(to, { recursive: true });
  cpSync(join(here, 'worlds'), join(to, 'worlds'), { recursive: true });
  const names = readdirSync(here).filter((f) => f.endsWith('.oracle'));
  for (const f of names) cpSync(join(here, f), join(to, f));
  const edit = (f: string, from: string, to_: string) => {
    const text = readFileSync(join(to, f), 'utf8');
    expect(text).toContain(from);
    writeFileSync(join(to, f), text.replace(from, to_));
  };
  edit('loop_rearm.oracle', '"event":"hiss","target":"engine"}', '"event":"hush","target":"engine"}');
  edit('crickets.oracle', '"ev":"set","from":"","to":"engine"}', '"ev":"set","from":"","to":"boiler"}');
  writeFileSync(join(to, 'bad_header.oracle'), '-- untill: 1s\non startup\nend\n== expect\n');
  return [...names, 'bad_header.oracle'].sort();
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'pw-jobs-'));
  names = suite(tmp);
  serial = await run(['check', 'oracles'], tmp);
});
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe('pw check --jobs', () => {
  it('reports what a serial run reports, in the same order, with the same exit code', async () => {
    expect(serial.code).toBe(1);
    expect(serial.stdout).toMatch(new RegExp(`^${names.length} oracles: ${names.length - 3} passed, 3 failed`, 'm'));
    expect(serial.stdout).toContain('- expected  {"t":2250,"ev":"loop","kind":"scene","event":"hush"');
    const parallel = runBuilt(['check', 'oracles', '--jobs', '3'], tmp);
    expect(parallel.code, parallel.stderr).toBe(1);
    expect(untimed(parallel.stdout)).toBe(untimed(serial.stdout));
  });

  it('rewrites expectations with --update as a serial run does', async () => {
    const outputs = [];
    for (const jobs of ['1', '2']) {
      const dir = join(tmp, `update-${jobs}`);
      suite(dir);
      rmSync(join(dir, 'oracles', 'bad_header.oracle'));
      const args = ['check', '--update', 'oracles', '--jobs', jobs];
      const r = jobs === '1' ? await run(args, dir) : runBuilt(args, dir);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^UPDATED oracles\/loop_rearm\.oracle/m);
      // the broken expectations are back to the committed ones
      for (const f of ['loop_rearm.oracle', 'crickets.oracle']) {
        expect(readFileSync(join(dir, 'oracles', f), 'utf8')).toBe(readFileSync(join(here, f), 'utf8'));
      }
      outputs.push(untimed(r.stdout));
    }
    expect(outputs[1]).toBe(outputs[0]);
  });
});

describe('pw check --shard', () => {
  it('splits the oracles into slices that hold each one once, in order', async () => {
    const parts = [1, 2, 3].map((i) => runBuilt(['check', 'oracles', '--shard', `${i}/3`, '--jobs', 'auto'], tmp));
    expect(parts.flatMap((p) => reports(p.stdout))).toEqual(reports(serial.stdout));
    parts.forEach((p, i) => {
      const mine = reports(p.stdout).filter((l) => /^(PASS|FAIL) /.test(l));
      expect(p.stdout).toMatch(new RegExp(`^${mine.length} oracles? \\(shard ${i + 1}/3 of ${names.length}\\): `, 'm'));
      // a shard fails exactly when one of its oracles does
      expect(p.code).toBe(mine.some((l) => l.startsWith('FAIL')) ? 1 : 0);
    });
    // more shards than oracles: the empty ones pass
    const empty = await run(['check', 'oracles/loop_rearm.oracle', '--shard', '1/2'], tmp);
    expect(empty.code).toBe(0);
    expect(empty.stdout).toMatch(/^0 oracles \(shard 1\/2 of 1\): 0 passed/m);
  });
});

describe('pw check usage', () => {
  it('refuses a bad --jobs or --shard with exit 2 and says what it needs', async () => {
    for (const [args, message] of [
      [['--jobs', 'two'], '--jobs needs a whole number of 0 or more, or "auto", not "two"'],
      [['--shard', '0/2'], '--shard needs i/n with 1 ≤ i ≤ n, like 2/3, not "0/2"'],
      [['--shard', '3/2'], 'not "3/2"'],
      [['--shard', '2'], 'not "2"'],
    ] as const) {
      const r = await run(['check', join(here, 'loop_rearm.oracle'), ...args], tmp);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
      expect(r.stderr).not.toMatch(/\n\s+at /); // no JavaScript stack
    }
  });
});
