// `pw check` exit codes and reports, `--update` on a temporary copy, and byte-identical
// `pw run --trace`: the command in this process, and the built pw (dist/pw.js, rebuilt by
// the test global setup) in a child process as one of the two runs compared.
import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pwHere, pwProcess } from '../support/cli.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const busy = join(root, 'test', 'oracles', 'worlds', 'busy.pw');

// --update writes only outside CI
const plainEnv = { FORCE_COLOR: undefined, NO_COLOR: undefined, CI: undefined };

function run(args: string[], env: Record<string, string> = {}) {
  return pwHere(args, root, { env: { ...plainEnv, ...env } });
}

function runBuilt(args: string[]) {
  const env = { ...process.env };
  for (const k of Object.keys(plainEnv)) delete env[k];
  return pwProcess(args, root, { env });
}

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'pw-cli-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe('pw check --update writes only oracles, and never in CI', () => {
  it('refuses a .pw script: an expect section would stop it compiling', async () => {
    const script = join(tmp, 'lamp.pw');
    const text = 'on startup\n  print ("lamp")\nend\n';
    writeFileSync(script, text);
    const r = await run(['check', '--update', script]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--update rewrites only oracle files (.oracle), and "${script}" is not one: nothing was written`);
    expect(readFileSync(script, 'utf8')).toBe(text);
  });

  it('refuses to write when CI is set, and writes when it is "false"', async () => {
    const file = join(tmp, 'loop_rearm.oracle');
    const text = readFileSync(join(root, 'test', 'oracles', 'loop_rearm.oracle'), 'utf8').replace(/\n== expect\n[\s\S]*$/, '\n');
    writeFileSync(file, text);
    const r = await run(['check', '--update', file], { CI: 'true' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--update does not write in CI (CI is set)');
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect((await run(['check', '--update', file], { CI: 'false' })).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('== expect');
  });
});

describe('pw check', () => {
  it('passes on the project oracles (default path test/oracles), one line each and a summary', async () => {
    const r = await run(['check']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^PASS test\/oracles\/loop_rearm\.oracle \([\d.]+ ms\)$/m);
    expect(r.stdout).toMatch(/^\d+ oracles: \d+ passed \([\d.]+ s\)$/m);
    expect(r.stdout).not.toContain('\u001b['); // not a terminal: no colour
  });

  it('fails on a changed event with a diff naming the game time and both events; --update restores it', async () => {
    const file = join(tmp, 'loop_rearm.oracle');
    cpSync(join(root, 'test', 'oracles', 'loop_rearm.oracle'), file);
    const original = readFileSync(file, 'utf8');
    const good = '{"t":2250,"ev":"loop","kind":"scene","event":"hiss","target":"engine"}';
    const bad = '{"t":2250,"ev":"loop","kind":"scene","event":"hush","target":"engine"}';
    writeFileSync(file, original.replace(good, bad));

    const failed = await run(['check', file]);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('FAIL');
    expect(failed.stdout).toContain('first difference at game time 2250 ms');
    expect(failed.stdout).toContain(`- expected  ${bad}`);
    expect(failed.stdout).toContain(`+ actual    ${good}`);
    expect(failed.stdout).toMatch(/^1 oracle: 0 passed, 1 failed/m);

    const coloured = await run(['check', file], { FORCE_COLOR: '1' });
    expect(coloured.code).toBe(1);
    expect(coloured.stdout).toContain('\u001b[');

    const updated = await run(['check', '--update', file]);
    expect(updated.code, updated.stdout).toBe(0);
    expect(updated.stdout).toMatch(/^UPDATED .*loop_rearm\.oracle/m);
    expect(readFileSync(file, 'utf8')).toBe(original);
    expect((await run(['check', file])).code).toBe(0);
  });

  it('exits 2 on bad usage', async () => {
    expect((await run(['check', join(tmp, 'nowhere')])).code).toBe(2);
    expect((await run(['check', tmp])).code).toBe(2); // a folder without oracles
    expect((await run(['check', '--no-such-option'])).code).toBe(2);
  });

  it('exits 1 when an oracle cannot run, and says why', async () => {
    const file = join(tmp, 'bad.oracle');
    writeFileSync(file, '-- untill: 1s\non startup\nend\n== expect\n');
    const r = await run(['check', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/bad\.oracle:1: "untill" is not an oracle setting — did you mean "until"\?/);
  });
});

describe('pw run --trace', () => {
  it('gives byte-identical stdout and trace on two runs', async () => {
    const runs = [];
    // one run by the built pw, one in this process after everything this worker ran before
    for (const i of [1, 2]) {
      const trace = join(tmp, `trace${i}.jsonl`);
      const args = ['run', busy, '--until', '120s', '--trace', trace];
      const r = i === 1 ? runBuilt(args) : await run(args);
      expect(r.code, r.stderr).toBe(0);
      runs.push({ stdout: Buffer.from(r.stdout, 'utf8'), trace: readFileSync(trace) });
    }
    expect(runs[0].stdout.length).toBeGreaterThan(1000);
    expect(runs[0].trace.length).toBeGreaterThan(10_000);
    expect(runs[1].stdout.equals(runs[0].stdout)).toBe(true);
    expect(runs[1].trace.equals(runs[0].trace)).toBe(true);
    // every line is one JSON event stamped with game time, in time order
    const events = runs[0].trace
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(Object.keys(events[0]).slice(0, 2)).toEqual(['t', 'ev']);
    for (let i = 1; i < events.length; i++) expect(events[i].t).toBeGreaterThanOrEqual(events[i - 1].t);
  });

  it('prints the same at 30 and 144 fps', async () => {
    const a = await run(['run', busy, '--until', '120s', '--fps', '30']);
    const b = await run(['run', busy, '--until', '120s', '--fps', '144']);
    expect(a.code).toBe(0);
    expect(b.stdout).toBe(a.stdout);
  });
});
