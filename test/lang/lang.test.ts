// Language tests as script files: each .pw file under test/lang carries its expected
// output in comments, the Wren way:
//   -- expect: TEXT                  a line of stdout, in order
//   -- expect error: TEXT            a compile/syntax error on this line whose message contains TEXT
//   -- expect runtime error: TEXT    a runtime error on this line whose message contains TEXT
//   -- run: --until 10s --fps 30 --seed 4 --loop-guard 0   options for the run
import { describe, it, expect } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runScript } from '../support/run.ts';
import { parseDuration } from '../../src/time/units.ts';

// Script tests live beside this runner and in the other suites' folders.
const root = new URL('..', import.meta.url).pathname;
const SUITES = ['lang', 'timing', 'world-scripts'];
const files = SUITES.flatMap((suite) => {
  try {
    return readdirSync(join(root, suite)).filter((f) => f.endsWith('.pw')).sort().map((f) => `${suite}/${f}`);
  } catch {
    return [];
  }
});

interface Expected {
  out: string[];
  errors: { line: number; text: string; runtime: boolean }[];
  opts: Record<string, string>;
}

function expectations(source: string): Expected {
  const ex: Expected = { out: [], errors: [], opts: {} };
  source.split('\n').forEach((line, i) => {
    let m = line.match(/--\s*expect:\s?(.*)$/);
    if (m) ex.out.push(m[1]);
    m = line.match(/--\s*expect (runtime )?error:\s*(.*)$/);
    if (m) ex.errors.push({ line: i + 1, text: m[2].trim(), runtime: !!m[1] });
    m = line.match(/--\s*run:\s*(.*)$/);
    if (m) {
      const parts = m[1].trim().split(/\s+/);
      for (let j = 0; j < parts.length; j += 2) ex.opts[parts[j].replace(/^--/, '')] = parts[j + 1];
    }
  });
  return ex;
}

describe('script tests (test/{lang,timing,world-scripts}/*.pw)', () => {
  for (const f of files) {
    it(f, () => {
      const source = readFileSync(join(root, f), 'utf8');
      const ex = expectations(source);
      const opts = {
        until: ex.opts.until ? parseDuration(ex.opts.until) : undefined,
        fps: ex.opts.fps ? Number(ex.opts.fps) : 60,
        seed: ex.opts.seed ? Number(ex.opts.seed) : 1,
        loopGuard: ex.opts['loop-guard'] !== undefined ? Number(ex.opts['loop-guard']) : 100000,
      };
      const r = runScript({ [`test/${f}`]: source }, opts);
      expect(r.stdout).toEqual(ex.out);
      const got = r.errors.filter((d) => d.kind !== 'warning').map((d) => ({ line: d.line, text: d.message, runtime: d.kind === 'runtime error' }));
      expect(got.length, `errors: ${r.stderr}`).toBe(ex.errors.length);
      ex.errors.forEach((want, i) => {
        expect(got[i].line, r.stderr).toBe(want.line);
        expect(got[i].runtime, r.stderr).toBe(want.runtime);
        expect(got[i].text).toContain(want.text);
      });
      expect(r.exit).toBe(ex.errors.length > 0 ? 1 : 0);
      expect(r.stderr).not.toMatch(/\n\s+at .*\.(ts|js):\d+/); // never a JavaScript stack
      // the bytecode interpreter and the generated code must agree exactly
      const slow = runScript({ [`test/${f}`]: source }, { ...opts, jit: false });
      expect(slow.stdout).toEqual(r.stdout);
      expect(slow.stderr).toEqual(r.stderr);
      expect(slow.trace).toEqual(r.trace);
    });
  }
});
