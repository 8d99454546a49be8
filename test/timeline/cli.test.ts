// `pw run --timeline`, `pw run --trace-detail timeline` and `pw timeline`, as an author
// runs them, in a temporary folder: in this process, and the built pw in a child
// process for a command of docs/timeline.md and where a mistake would wait on a FIFO.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkChromeTrace } from './chrome-format.ts';
import { pwHere, pwProcess, type PwRun } from '../support/cli.ts';

const SCRIPTS = fileURLToPath(new URL('../../scripts', import.meta.url));

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pw-timeline-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const pw = (args: string[], cwd = dir): Promise<PwRun> => pwHere(args, cwd);
const builtPw = (args: string[], cwd = dir): PwRun => pwProcess(args, cwd);

const read = (f: string): string => readFileSync(join(dir, f), 'utf8');

describe('pw run --timeline', () => {
  it('writes a sound Chrome trace and leaves the --trace file and stdout as they were without it', async () => {
    const plain = await pw(['run', SCRIPTS, '--until', '25s', '--trace', 'plain.jsonl']);
    const withTimeline = await pw(['run', SCRIPTS, '--until', '25s', '--trace', 'same.jsonl', '--timeline', 'demo.json']);
    expect(plain.code).toBe(0);
    expect(withTimeline.code).toBe(0);
    expect(withTimeline.stdout).toBe(plain.stdout);
    expect(read('same.jsonl')).toBe(read('plain.jsonl'));
    const json = read('demo.json');
    expect(checkChromeTrace(json)).toEqual([]);
    const names = (JSON.parse(json) as { traceEvents: { ph: string; name: string; args?: { name?: string } }[] }).traceEvents
      .filter((e) => e.ph === 'M' && e.name === 'thread_name')
      .map((e) => e.args!.name);
    expect(names).toEqual(expect.arrayContaining(['set engine · steamhiss', 'actor steward', 'sound slot 2', 'cricket vent', 'openset of bedsit']));
  });

  it('--trace-detail timeline puts the detail in the trace, and pw timeline makes the same file from it', async () => {
    expect((await pw(['run', SCRIPTS, '--until', '25s', '--trace', 'detail.jsonl', '--trace-detail', 'timeline', '--timeline', 'direct.json'])).code).toBe(0);
    const kinds = new Set(
      read('detail.jsonl')
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { ev: string }).ev),
    );
    for (const k of ['thread', 'run', 'wait', 'exit', 'arm']) expect(kinds).toContain(k);
    const r = await pw(['timeline', 'detail.jsonl', '-o', 'fromtrace.json', '--to', '25s']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    // a plain trace still draws, and says what it lacks and how to get it
    expect((await pw(['run', SCRIPTS, '--until', '5s', '--trace', 'plain.jsonl'])).code).toBe(0);
    const plain = await pw(['timeline', 'plain.jsonl', '-o', 'plain.svg']);
    expect(plain.code).toBe(0);
    expect(plain.stderr).toContain('this trace has no thread detail');
    expect(plain.stderr).toContain('--trace-detail timeline');
    expect(read('fromtrace.json')).toBe(read('direct.json'));
    for (const out of ['pic.svg', 'page.html']) expect((await pw(['timeline', 'detail.jsonl', '-o', out, '--from', '5s', '--to', '15s'])).code).toBe(0);
    const svg = read('pic.svg');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('game time 5 s to 15 s');
    expect(svg).not.toMatch(/<script|href=|url\(/);
    const html = read('page.html');
    expect(html).toContain('<svg');
    // self-contained: nothing is fetched from anywhere
    expect(html).not.toMatch(/\b(src|href)=|url\(|@import/);
  });

  it('refuses bad usage with exit 2 and a bad trace with exit 1, naming the line', async () => {
    writeFileSync(join(dir, 'bad.jsonl'), '{"t":0,"ev":"print","text":"a"}\n{"t":5,"ev":\n');
    writeFileSync(join(dir, 'back.json'), '');
    writeFileSync(join(dir, 'back.jsonl'), '{"t":10,"ev":"print","text":"a"}\n{"t":5,"ev":"print","text":"b"}\n');
    const cases: [string[], number, RegExp][] = [
      [['timeline', 'bad.jsonl', '-o', 'x.json'], 1, /bad\.jsonl:2: not JSON/],
      [['timeline', 'back.jsonl', '-o', 'x.json'], 1, /back\.jsonl:2: time goes back, from 10 to 5 ms/],
      [['timeline', 'missing.jsonl', '-o', 'x.json'], 2, /cannot read the trace "missing\.jsonl"/],
      [['timeline', 'bad.jsonl'], 2, /name the output with -o/],
      [['timeline', 'bad.jsonl', '-o', 'x.png'], 2, /-o "x\.png": name a file ending in \.json, \.html, \.svg/],
      [['timeline', 'back.json', '-o', 'back.json'], 2, /-o "back\.json" would overwrite the trace it is made from/],
      [['timeline', 'bad.jsonl', '-o', 'x.json', '--from', '5s', '--to', '2s'], 2, /--to must be later than --from/],
      [['run', SCRIPTS, '--timeline', 'out.txt'], 2, /--timeline "out\.txt": name a file ending in/],
      [['run', SCRIPTS, '--trace-detail', 'timeline'], 2, /--trace-detail timeline needs --trace FILE/],
      [['run', SCRIPTS, '--until', '1s', '--save', 'world.json', '--timeline', 'world.json'], 2, /--timeline "world\.json" would overwrite the snapshot/],
    ];
    for (const [args, code, message] of cases) {
      const r = await pw(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(code);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\bat .*\.(ts|js):\d+/);
    }
  });

  it('draws a trace whose game time runs to the edge of what a number holds, and refuses a FIFO instead of waiting on it', async () => {
    writeFileSync(join(dir, 'far.jsonl'), '{"t":0,"ev":"print","text":"a"}\n{"t":1e300,"ev":"print","text":"b"}\n');
    const far = await pw(['timeline', 'far.jsonl', '-o', 'far.svg']);
    expect(far.code, far.stderr).toBe(0);
    expect(read('far.svg')).toContain('<svg');
    expect(spawnSync('mkfifo', [join(dir, 'pipe.jsonl')]).status).toBe(0);
    const fifo = builtPw(['timeline', 'pipe.jsonl', '-o', 'x.json']);
    expect(fifo.code).toBe(2);
    expect(fifo.stderr).toMatch(/cannot read the trace "pipe\.jsonl": it is not a regular file/);
  });

  it('the pictures in docs/timeline.md are what its commands make', async () => {
    expect((await pw(['run', 'scripts', '--until', '20s', '--timeline', join(dir, 'first20.svg')], ROOT)).code).toBe(0);
    expect(read('first20.svg')).toBe(readFileSync(join(ROOT, 'docs', 'timeline-demo.svg'), 'utf8'));
    expect((await pw(['run', 'scripts', '--until', '50s', '--trace', join(dir, 'demo.jsonl'), '--trace-detail', 'timeline'], ROOT)).code).toBe(0);
    expect(builtPw(['timeline', 'demo.jsonl', '-o', 'bedsit.svg', '--from', '19s', '--to', '50s']).code).toBe(0);
    expect(read('bedsit.svg')).toBe(readFileSync(join(ROOT, 'docs', 'timeline-bedsit.svg'), 'utf8'));
  });
});
