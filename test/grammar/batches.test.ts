import { describe, it, expect } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { batchStarts, parseFile, parseFileCarefully, parseFileInBatches, quickParseInBatches } from '../../grammar/parser.ts';
import { CORPUS, mutate, tokenize } from '../fuzz/text.ts';
import type { Mutation } from '../fuzz/text.ts';
import { generateScript } from '../bench/pw-entry.ts';

// A big file is quick-parsed a batch at a time. Small batch sizes put batch edges at
// every item, so small scripts exercise them; the result must be exactly that of the
// whole-file reading, positions included, and any problem must come out as before.

const ROOT = join(fileURLToPath(import.meta.url), '../../..');
const SIZES = [1, 10, 100, 1000];
const INSERTS = ['\n', ';', 'end', 'endif', 'endset', 'on', 'on x\n', '\nset s\n', 'global g\n', 'if x then', '(', '"'];
/** Never batched: the whole-file path. */
const WHOLE = Infinity;

function examples(): { file: string; source: string }[] {
  const dir = join(ROOT, 'docs/examples');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.pw'))
    .map((f) => ({ file: `docs/examples/${f}`, source: readFileSync(join(dir, f), 'utf8') }));
}

const crafted: Record<string, string> = {
  'blank and comment lines before items': 'on a\n  x = 1\nend\n\n\n-- about b\n\non b\n  y = 2\nend\n-- c\nset s\n  on c\n  end\nendset\n',
  'indented items': 'on a\n  x = 1\nend\n   on b\n  y = 2\n  end\n\t set s\n    property p = 1\n\tendset\n  global g\n',
  'CRLF lines': 'on a\r\n  x = 1\r\nend\r\n\r\n-- c\r\n  on b\r\n  y = "two"\r\nend\r\nset s\r\n  on c\r\n  end\r\nendset\r\n',
  'CR lines': 'on a\r  x = 1\rend\r\r  on b\r  y = 2\rend\r',
  'mixed case': 'ON a\n  x = 1\nEND\nSet s\n  On b\n  End\nEndSet\nGLOBAL g, h\nActor v\nENDACTOR\nPROP p\nendProp\nFlAt f\nENDflat\n',
  'global lines, at top level and in handlers': 'global a\nglobal b, c\non h\n  global d\n  d = 1\nend\nglobal e\n',
  'names that begin like item words': 'on one\n  online = 1\n  setting = 2\n  global_x = 3\n  endless = 4\nend\non two\nend\n',
  'a one-line handler': 'on a; x = 1; end\non b\n  global g\n  y = 2\nend\nset s\nendset\non c\nend\n',
  'strings and comments with item words': 'on a\n  x = "\non b"\n  -- on c\nend\non d\n  y = "set s" -- endset\nend\n',
  'no line break at the end': 'on a\n  x = 1\nend\non b\nend',
  'a list of item lines after a handler': 'on a\n  x = [1, 2]\nend\non b (p, q)\n  return p .. q\nend\n',
};

const broken: Record<string, string> = {
  'a handler missing its end right before an edge': 'on a\n  x = 1\n\non b\n  y = 2\nend\n',
  'an if missing its endif before an edge': 'on a\n  if x then\n    y = 1\nend\non b\nend\n',
  'an object missing its closer before an edge': 'on z\nend\nset s\n  on a\n  end\n\nset t\nendset\nendset\non b\nend\n',
  'a stray end after an edge': 'on a\nend\non b\nend\nend\non c\nend\n',
  'a stray endset after an edge': 'on a\nend\nendset\non c\nend\n',
  'an object closed by the wrong word across an edge': 'set s\n  on a\n  end\nendactor\non b\nend\n',
  'a statement at top level between items': 'on a\nend\nx = 1\non b\nend\n',
  'a bad character in a later batch': 'on a\nend\non b\n  x = 1 # 2\nend\n',
  'an unterminated string in a later batch': 'on a\nend\non b\n  x = "abc\nend\n',
  'two problems on one line across batches': 'on a\nend\non b; x = ; end\non c\n y = (\nend\n',
  'the last item unclosed': 'on a\nend\non b\n  x = 1\n',
  'nested too deeply across batches': 'on a\nend\n' + 'if x then\n'.repeat(120) + 'on b\n' + 'if x then\n'.repeat(120) + 'on c\nend\n',
};

// Scripts without errors where a batch edge lands inside an item: the first words of
// lines do not tell everything. The batches give up and the file is read whole.
const miscut: Record<string, string> = {
  'an object opened after a ";"': 'global g; set s\n  on a\n  end\nendset\non b\nend\n',
};

describe('the quick pass in batches', () => {
  const clean = [...CORPUS.map((e) => ({ file: e.file, source: e.source })), ...examples(), ...Object.entries(crafted).map(([file, source]) => ({ file, source }))].filter(
    (s) => parseFileCarefully(s.source, s.file).errors.length === 0,
  );

  it('cuts the crafted scripts into several batches', () => {
    for (const [name, source] of Object.entries(crafted)) {
      expect(batchStarts(source, 1).length, name).toBeGreaterThanOrEqual(2);
    }
  });

  it('builds the AST of the whole-file reading for every script without errors', () => {
    expect(clean.length).toBeGreaterThan(100);
    for (const s of clean) {
      const whole = parseFileInBatches(s.source, s.file, WHOLE);
      expect(whole.errors, s.file).toEqual([]);
      expect(parseFileCarefully(s.source, s.file).ast, s.file).toEqual(whole.ast);
      for (const size of SIZES) {
        const items = quickParseInBatches(s.source, size);
        expect(items, `${s.file} in batches of ${size}`).not.toBeNull();
        expect(items, `${s.file} in batches of ${size}`).toEqual(whole.ast.items);
        expect(parseFileInBatches(s.source, s.file, size), `${s.file} in batches of ${size}`).toEqual(whole);
      }
    }
  });

  it('builds the AST of the whole-file reading for a big generated script', () => {
    const source = generateScript(300_000);
    const whole = parseFileInBatches(source, 'g.pw', WHOLE);
    expect(whole.errors).toEqual([]);
    expect(parseFileCarefully(source, 'g.pw').ast).toEqual(whole.ast);
    expect(batchStarts(source, 32 * 1024).length).toBeGreaterThanOrEqual(10);
    expect(parseFile(source, 'g.pw')).toEqual(whole);
    for (const size of [1, 5000]) {
      const items = quickParseInBatches(source, size);
      expect(items, `batches of ${size}`).not.toBeNull();
      expect(items, `batches of ${size}`).toEqual(whole.ast.items);
    }
  });

  it('gives up on a problem in any batch, and the file reports what it always did', () => {
    for (const [name, source] of Object.entries(broken)) {
      expect(batchStarts(source, 1).length, name).toBeGreaterThanOrEqual(2);
      const whole = parseFileInBatches(source, name, WHOLE);
      expect(whole.errors.length, name).toBeGreaterThan(0);
      for (const size of SIZES) {
        expect(quickParseInBatches(source, size), `${name} in batches of ${size}`).toBeNull();
        expect(parseFileInBatches(source, name, size), `${name} in batches of ${size}`).toEqual(whole);
      }
    }
  });

  it('gives up where an edge cuts an item, and the file reads as a whole', () => {
    for (const [name, source] of Object.entries(miscut)) {
      const whole = parseFileInBatches(source, name, WHOLE);
      expect(whole.errors, name).toEqual([]);
      expect(quickParseInBatches(source, 1), name).toBeNull();
      expect(parseFileInBatches(source, name, 1), name).toEqual(whole);
    }
  });

  it('reads mutated repository scripts as the whole-file reading does', () => {
    // a small deterministic generator, so a failure can be replayed
    let seed = 12345;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const ops = ['deleteToken', 'duplicateToken', 'deleteChar', 'duplicateChar', 'swapChars', 'deleteLine', 'duplicateLine'] as const;
    for (let k = 0; k < 300; k++) {
      const e = CORPUS[next(CORPUS.length)]!;
      const count = tokenize(e.source).length;
      const op = next(ops.length + 2);
      const m: Mutation = op < ops.length ? { op: ops[op]!, at: next(Math.max(1, count)) } : { op: 'insertToken', at: next(Math.max(1, count)), text: INSERTS[next(INSERTS.length)]! };
      const source = mutate(e.source, m);
      const whole = parseFileInBatches(source, e.file, WHOLE);
      for (const size of [1, 200]) {
        expect(parseFileInBatches(source, e.file, size), `${e.file} ${JSON.stringify(m)} in batches of ${size}`).toEqual(whole);
      }
    }
  });
});
