// Language tests as script files: each .pw file carries its expected output in
// comments, the Wren way (see test/support/expect.ts for the conventions). A folder of
// .pw files is one program of several files, loaded in name order as `pw run FOLDER`
// loads them; its expected output is every file's `-- expect:` lines in that order.
import { describe, it, expect } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runScript } from '../support/run.ts';
import { expectations, runOptions, type Expected } from '../support/expect.ts';

// Script tests live beside this runner and in the other suites' folders.
const root = new URL('..', import.meta.url).pathname;
const SUITES = ['lang', 'timing', 'world-scripts'];
const tests = SUITES.flatMap((suite) => {
  try {
    return readdirSync(join(root, suite))
      .filter((f) => f.endsWith('.pw') || statSync(join(root, suite, f)).isDirectory())
      .sort()
      .map((f) => `${suite}/${f}`);
  } catch {
    return [];
  }
});

/** The test's files (one, or a folder's .pw files in name order) and what they expect together. */
function load(test: string): { sources: Record<string, string>; ex: Expected & { errorFiles: string[] } } {
  const names = test.endsWith('.pw')
    ? [test]
    : readdirSync(join(root, test))
        .filter((f) => f.endsWith('.pw'))
        .sort()
        .map((f) => `${test}/${f}`);
  const sources: Record<string, string> = {};
  const ex: Expected & { errorFiles: string[] } = { out: [], errors: [], opts: {}, errorFiles: [] };
  for (const name of names) {
    const source = readFileSync(join(root, name), 'utf8');
    sources[`test/${name}`] = source;
    const one = expectations(source);
    ex.out.push(...one.out);
    ex.errors.push(...one.errors);
    ex.errorFiles.push(...one.errors.map(() => `test/${name}`));
    Object.assign(ex.opts, one.opts);
  }
  return { sources, ex };
}

describe('script tests (test/{lang,timing,world-scripts}/*.pw and folders of them)', () => {
  for (const t of tests) {
    it(t, () => {
      const { sources, ex } = load(t);
      expect(Object.keys(sources).length, 'a test folder holds .pw files').toBeGreaterThan(0);
      const opts = runOptions(ex);
      const r = runScript(sources, opts);
      expect(r.stdout).toEqual(ex.out);
      const got = r.errors.filter((d) => d.kind !== 'warning').map((d) => ({ file: d.file, line: d.line, text: d.message, runtime: d.kind === 'runtime error' }));
      expect(got.length, `errors: ${r.stderr}`).toBe(ex.errors.length);
      ex.errors.forEach((want, i) => {
        expect(got[i].file, r.stderr).toBe(ex.errorFiles[i]);
        expect(got[i].line, r.stderr).toBe(want.line);
        expect(got[i].runtime, r.stderr).toBe(want.runtime);
        expect(got[i].text).toContain(want.text);
      });
      expect(r.exit).toBe(ex.errors.length > 0 ? 1 : 0);
      expect(r.stderr).not.toMatch(/\n\s+at .*\.(ts|js):\d+/); // never a JavaScript stack
      // the bytecode interpreter and the generated code must agree exactly
      const slow = runScript(sources, { ...opts, jit: false });
      expect(slow.stdout).toEqual(r.stdout);
      expect(slow.stderr).toEqual(r.stderr);
      expect(slow.trace).toEqual(r.trace);
      // with no trace host the engine skips tracing work (and traced-only lookups): same output
      const quiet = runScript(sources, { ...opts, traced: false });
      expect(quiet.stdout).toEqual(r.stdout);
      expect(quiet.stderr).toEqual(r.stderr);
    });
  }
});
