import { describe, it, expect } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { batchStarts, parseFile } from '../../grammar/parser.ts';
import type { TopItem } from '../../grammar/ast.ts';
import { CORPUS } from '../fuzz/text.ts';
import { generateScript } from '../bench/pw-entry.ts';

// The language server parses a big file in pieces cut where batchStarts says items
// start. Small sizes put an edge at every item, so small scripts exercise them: each
// piece, read below as many line breaks as the file has above it, must give exactly
// the items of the whole-file reading, positions included.

const ROOT = join(fileURLToPath(import.meta.url), '../../..');
const SIZES = [1, 10, 100, 1000];

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

/** The items of each piece of `source` cut at batchStarts (size `size`), or null if a piece has errors. */
function readInPieces(source: string, size: number): TopItem[] | null {
  const starts = batchStarts(source, size);
  const items: TopItem[] = [];
  for (let b = 0; b <= starts.length; b += 2) {
    const from = b === 0 ? 0 : starts[b - 2]!;
    const line = b === 0 ? 0 : starts[b - 1]!;
    const to = b < starts.length ? starts[b]! : source.length;
    const r = parseFile('\n'.repeat(line) + source.slice(from, to), 'x.pw');
    if (r.errors.length > 0) return null;
    items.push(...r.ast.items);
  }
  return items;
}

describe('where the items of a file start', () => {
  const clean = [...CORPUS.map((e) => ({ file: e.file, source: e.source })), ...examples(), ...Object.entries(crafted).map(([file, source]) => ({ file, source }))].filter(
    (s) => parseFile(s.source, s.file).errors.length === 0,
  );

  it('cuts the crafted and broken scripts into several pieces', () => {
    for (const [name, source] of Object.entries({ ...crafted, ...broken })) {
      expect(batchStarts(source, 1).length, name).toBeGreaterThanOrEqual(2);
    }
  });

  it('cuts every script without errors only between items', () => {
    expect(clean.length).toBeGreaterThan(100);
    for (const s of clean) {
      const whole = parseFile(s.source, s.file).ast.items;
      for (const size of SIZES) expect(readInPieces(s.source, size), `${s.file} in pieces of ${size}`).toEqual(whole);
    }
  });

  it('cuts a big generated script only between items', () => {
    const source = generateScript(300_000);
    expect(batchStarts(source, 32 * 1024).length).toBeGreaterThanOrEqual(10);
    const whole = parseFile(source, 'g.pw').ast.items;
    for (const size of [1, 5000]) expect(readInPieces(source, size), `pieces of ${size}`).toEqual(whole);
  });

  it('can cut inside an item when a line holds more than its first word says', () => {
    for (const [name, source] of Object.entries(miscut)) {
      expect(parseFile(source, name).errors, name).toEqual([]);
      expect(readInPieces(source, 1), name).toBeNull();
    }
  });
});
