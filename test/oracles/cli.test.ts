// The built CLI (dist/pw.js, rebuilt by the test global setup): `pw check` exit codes
// and reports, `--update` on a temporary copy, and byte-identical `pw run --trace`.
import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pw = join(root, 'dist', 'pw.js');
const busy = join(root, 'test', 'oracles', 'worlds', 'busy.pw');

function run(args: string[], env: Record<string, string> = {}) {
  const clean = { ...process.env };
  delete clean.FORCE_COLOR;
  delete clean.NO_COLOR;
  delete clean.CI; // --update writes only outside CI
  const r = spawnSync(process.execPath, [pw, ...args], { cwd: root, encoding: 'buffer', env: { ...clean, ...env }, timeout: 120_000 });
  return { code: r.status, stdout: r.stdout.toString('utf8'), stderr: r.stderr.toString('utf8'), raw: r.stdout };
}

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'pw-cli-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe('pw check --update writes only oracles, and never in CI', () => {
  it('refuses a .pw script: an expect section would stop it compiling', () => {
    const script = join(tmp, 'lamp.pw');
    const text = 'on startup\n  print ("lamp")\nend\n';
    writeFileSync(script, text);
    const r = run(['check', '--update', script]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--update rewrites only oracle files (.oracle), and "${script}" is not one: nothing was written`);
    expect(readFileSync(script, 'utf8')).toBe(text);
  });

  it('refuses to write when CI is set, and writes when it is "false"', () => {
    const file = join(tmp, 'loop_rearm.oracle');
    const text = readFileSync(join(root, 'test', 'oracles', 'loop_rearm.oracle'), 'utf8').replace(/\n== expect\n[\s\S]*$/, '\n');
    writeFileSync(file, text);
    const r = run(['check', '--update', file], { CI: 'true' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--update does not write in CI (CI is set)');
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(run(['check', '--update', file], { CI: 'false' }).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('== expect');
  });
});

describe('pw check', () => {
  it('passes on the project oracles (default path test/oracles), one line each and a summary', () => {
    const r = run(['check']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^PASS test\/oracles\/loop_rearm\.oracle \([\d.]+ ms\)$/m);
    expect(r.stdout).toMatch(/^\d+ oracles: \d+ passed \([\d.]+ s\)$/m);
    expect(r.stdout).not.toContain('\u001b['); // not a terminal: no colour
  });

  it('fails on a changed event with a diff naming the game time and both events; --update restores it', () => {
    const file = join(tmp, 'loop_rearm.oracle');
    cpSync(join(root, 'test', 'oracles', 'loop_rearm.oracle'), file);
    const original = readFileSync(file, 'utf8');
    const good = '{"t":2250,"ev":"loop","kind":"scene","event":"hiss","target":"engine"}';
    const bad = '{"t":2250,"ev":"loop","kind":"scene","event":"hush","target":"engine"}';
    writeFileSync(file, original.replace(good, bad));

    const failed = run(['check', file]);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('FAIL');
    expect(failed.stdout).toContain('first difference at game time 2250 ms');
    expect(failed.stdout).toContain(`- expected  ${bad}`);
    expect(failed.stdout).toContain(`+ actual    ${good}`);
    expect(failed.stdout).toMatch(/^1 oracle: 0 passed, 1 failed/m);

    const coloured = run(['check', file], { FORCE_COLOR: '1' });
    expect(coloured.code).toBe(1);
    expect(coloured.stdout).toContain('\u001b[');

    const updated = run(['check', '--update', file]);
    expect(updated.code, updated.stdout).toBe(0);
    expect(updated.stdout).toMatch(/^UPDATED .*loop_rearm\.oracle/m);
    expect(readFileSync(file, 'utf8')).toBe(original);
    expect(run(['check', file]).code).toBe(0);
  });

  it('exits 2 on bad usage', () => {
    expect(run(['check', join(tmp, 'nowhere')]).code).toBe(2);
    expect(run(['check', tmp]).code).toBe(2); // a folder without oracles
    expect(run(['check', '--no-such-option']).code).toBe(2);
  });

  it('exits 1 when an oracle cannot run, and says why', () => {
    const file = join(tmp, 'bad.oracle');
    writeFileSync(file, '-- untill: 1s\non startup\nend\n== expect\n');
    const r = run(['check', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/bad\.oracle:1: "untill" is not an oracle setting — did you mean "until"\?/);
  });
});

describe('pw run --trace', () => {
  it('gives byte-identical stdout and trace on two runs', () => {
    const runs = [1, 2].map((i) => {
      const trace = join(tmp, `trace${i}.jsonl`);
      const r = run(['run', busy, '--until', '120s', '--trace', trace]);
      expect(r.code, r.stderr).toBe(0);
      return { stdout: r.raw, trace: readFileSync(trace) };
    });
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

  it('prints the same at 30 and 144 fps', () => {
    const a = run(['run', busy, '--until', '120s', '--fps', '30']);
    const b = run(['run', busy, '--until', '120s', '--fps', '144']);
    expect(a.code).toBe(0);
    expect(b.raw.equals(a.raw)).toBe(true);
  });
});
