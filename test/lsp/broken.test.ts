// What an editor sends while someone types is mostly broken script. The facts, lints,
// hover, completion and outline must take any partial tree the parser recovers, and
// never throw. (FUZZ_RUNS=100000 npx vitest run test/lsp/broken.test.ts tries more.)
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseFile } from '../../grammar/parser.ts';
import { compileFiles } from '../../src/compiler/link.ts';
import { BUILTIN_TABLE } from '../../src/builtins/index.ts';
import { CompileErrors } from '../../src/errors/diagnostic.ts';
import { fileFacts } from '../../src/lint/facts.ts';
import { lint } from '../../src/lint/lints.ts';
import { UseLog } from '../../src/lint/uses.ts';
import { WorldFacts } from '../../src/lint/world.ts';
import { SymbolIndex } from '../../src/lsp/symbols.ts';
import type { Analysis, Entry } from '../../src/lsp/project.ts';
import { hover } from '../../src/lsp/hover.ts';
import { complete, signatureAt } from '../../src/lsp/complete.ts';
import { outline } from '../../src/lsp/navigate.ts';
import { FUZZ_RUNS } from '../fuzz/config.ts';

const dir = fileURLToPath(new URL('../../scripts/', import.meta.url));
const scripts = readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8'));
const pieces = ['(', ')', '"', '[', ']', 'on ', 'end\n', 'set x\n', 'endset', '\n', ',', 'self', 'makeloop (', '"scene"', ' .. ', 'if ', 'endif', 'for i = 1 to', '--'];

const edit = fc.tuple(fc.nat(), fc.nat(20), fc.constantFrom(...pieces), fc.boolean());
const broken = fc.record({ script: fc.nat(scripts.length - 1), edits: fc.array(edit, { minLength: 1, maxLength: 5 }), probes: fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 5 }) });

describe('editor services on broken scripts', () => {
  it('never throw', () => {
    fc.assert(
      fc.property(broken, ({ script, edits, probes }) => {
        let text = scripts[script];
        for (const [at, cut, piece, insert] of edits) {
          const i = at % (text.length + 1);
          text = insert ? text.slice(0, i) + piece + text.slice(i) : text.slice(0, i) + text.slice(i + cut);
        }
        const r = parseFile(text, 'x.pw');
        const facts = fileFacts(r.ast);
        const uses = new UseLog();
        try {
          compileFiles([r.ast], BUILTIN_TABLE, undefined, { uses });
        } catch (err) {
          if (!(err instanceof CompileErrors)) throw err;
        }
        const world = new WorldFacts([facts]);
        const an: Analysis = { world, uses, diagnostics: new Map(), entries: new Map([['x.pw', { facts } as Entry]]), builtins: BUILTIN_TABLE };
        expect(Array.isArray(lint(world, uses, new Set(['x.pw'])))).toBe(true);
        const ix = new SymbolIndex(an);
        const lines = text.split('\n');
        for (const [l, c] of probes) {
          const line = l % lines.length;
          const col = c % (lines[line].length + 1);
          hover(ix, 'x.pw', line + 1, col + 1);
          complete(ix, 'x.pw', line + 1, lines[line].slice(0, col));
          signatureAt(ix, 'x.pw', line + 1, lines[line].slice(0, col));
        }
        outline(facts);
      }),
      { numRuns: FUZZ_RUNS > 0 ? FUZZ_RUNS : 300, seed: 1729 },
    );
  });
});
