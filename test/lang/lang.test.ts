// Language tests as script files: each .pw file carries its expected output in
// comments, the Wren way (see test/support/expect.ts for the conventions).
import { describe, it, expect } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runScript } from '../support/run.ts';
import { expectations, runOptions } from '../support/expect.ts';

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

describe('script tests (test/{lang,timing,world-scripts}/*.pw)', () => {
  for (const f of files) {
    it(f, () => {
      const source = readFileSync(join(root, f), 'utf8');
      const ex = expectations(source);
      const opts = runOptions(ex);
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
