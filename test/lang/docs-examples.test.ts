// The examples of docs/language.md are real scripts: every docs/examples/*.pw runs
// and must print what its `-- expect:` comments say (the conventions of the .pw tests
// in this folder). The code blocks in the page must be those files, word for word,
// and an error output shown in the page must be what `pw run` really writes.
import { describe, it, expect } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runScript } from '../support/run.ts';
import { expectations, runOptions } from '../support/expect.ts';
import { pwHere } from '../support/cli.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const examplesDir = join(root, 'docs', 'examples');
const page = readFileSync(join(root, 'docs', 'language.md'), 'utf8');
const examples = readdirSync(examplesDir)
  .filter((f) => f.endsWith('.pw'))
  .sort();

/** Code blocks of the page announced by `<!-- KIND: docs/examples/NAME.pw -->` on the line before. */
function blocks(kind: 'example' | 'stderr'): Map<string, string> {
  const out = new Map<string, string>();
  const re = new RegExp(`<!-- ${kind}: docs/examples/([\\w-]+\\.pw) -->\\n\`\`\`[^\\n]*\\n([\\s\\S]*?)\`\`\``, 'g');
  for (const m of page.matchAll(re)) out.set(m[1]!, m[2]!);
  return out;
}

const trimLines = (text: string): string =>
  text
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')
    .trim();

describe('docs/examples/*.pw run as documented', () => {
  it('there are examples', () => {
    expect(examples.length).toBeGreaterThan(10);
  });

  for (const f of examples) {
    it(f, () => {
      const source = readFileSync(join(examplesDir, f), 'utf8');
      const ex = expectations(source);
      const r = runScript({ [f]: source }, runOptions(ex));
      expect(r.stdout).toEqual(ex.out);
      const got = r.errors.filter((d) => d.kind !== 'warning').map((d) => ({ line: d.line, text: d.message, runtime: d.kind === 'runtime error' }));
      expect(got.length, `errors: ${r.stderr}`).toBe(ex.errors.length);
      ex.errors.forEach((want, i) => {
        expect(got[i]!.line, r.stderr).toBe(want.line);
        expect(got[i]!.runtime, r.stderr).toBe(want.runtime);
        expect(got[i]!.text).toContain(want.text);
      });
      expect(r.exit).toBe(ex.errors.length > 0 ? 1 : 0);
    });
  }
});

describe('docs/language.md shows the examples as they are', () => {
  const shown = blocks('example');

  it('every example file is shown in the page, and every example shown is a file', () => {
    expect([...shown.keys()].sort()).toEqual(examples);
  });

  for (const [f, text] of shown) {
    it(`${f} in the page is the file`, () => {
      expect(text).toBe(readFileSync(join(examplesDir, f), 'utf8'));
    });
  }

  for (const [f, text] of blocks('stderr')) {
    it(`the error output shown for ${f} is what pw run writes`, async () => {
      const r = await pwHere(['run', f], examplesDir);
      expect(r.code).toBe(1);
      expect(trimLines(r.stderr)).toBe(trimLines(text));
    });
  }
});
