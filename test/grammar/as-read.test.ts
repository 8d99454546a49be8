import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { parseFileCarefully } from '../../grammar/parser.ts';
import { compileAsRead, compileFiles, sortDiagnostics } from '../../src/compiler/link.ts';
import type { SourceText } from '../../src/node/load.ts';
import { loadProgram } from '../../src/engine/load.ts';
import { STDLIB } from '../../src/compiler/stdlib.ts';
import { BUILTIN_TABLE } from '../../src/builtins/index.ts';
import { CompileErrors, type Diagnostic } from '../../src/errors/diagnostic.ts';
import { CORPUS, mutatedInput, mutatedSources } from '../fuzz/text.ts';
import { FUZZ_RUNS, LONG } from '../fuzz/config.ts';
import { generateScript } from '../bench/pw-entry.ts';
import type { Program } from '../../src/vm/program.ts';

// Handlers compiled as the direct reader reads them (what every load does first) must
// make the program, or the diagnostics, that whole chevrotain trees compiled after
// every declaration make: word for word, position for position.

const RUNS = LONG ? FUZZ_RUNS : 300;

/** A program as plain data: code, positions and constants of every handler included. */
function plain(p: Program): unknown {
  return {
    handlers: p.handlers.map((h) => ({ ...h, code: [...h.code], lines: [...h.lines], cols: [...h.cols] })),
    objects: p.objects,
    objectIndex: { ...p.objectIndex },
    globalHandlers: { ...p.globalHandlers },
    startups: p.startups,
    globals: p.globals,
    sources: { ...p.sources },
    fingerprint: p.fingerprint,
  };
}

/** The chevrotain path: whole trees, every declaration before any body. */
function careful(all: readonly SourceText[]): { program: unknown } | { diagnostics: Diagnostic[] } {
  const files = [];
  const errors: Diagnostic[] = [];
  for (const s of all) {
    const r = parseFileCarefully(s.source, s.file);
    files.push(r.ast);
    for (const e of r.errors) errors.push({ kind: 'syntax error', file: e.file, line: e.pos.line, col: e.pos.col, length: e.length, message: e.message });
  }
  if (errors.length > 0) return { diagnostics: sortDiagnostics(errors) };
  try {
    return { program: plain(compileFiles(files, BUILTIN_TABLE).program) };
  } catch (err) {
    if (err instanceof CompileErrors) return { diagnostics: err.diagnostics };
    throw err;
  }
}

/** Whether compileAsRead itself decided (made the program or found its mistakes) rather than leaving it to the trees. */
function asReadDecides(all: readonly SourceText[]): boolean {
  try {
    return 'program' in compileAsRead(all, BUILTIN_TABLE);
  } catch (err) {
    if (err instanceof CompileErrors) return true;
    throw err;
  }
}

/** Compares the load (compiled as read where it can) with the chevrotain path; whether compileAsRead decided. */
function agree(sources: readonly SourceText[], what: string): boolean {
  const all = [...STDLIB, ...sources];
  const want = careful(all);
  const got = loadProgram(sources);
  if ('program' in want) {
    expect(got.diagnostics, what).toEqual([]);
    expect(plain(got.program!), what).toEqual(want.program);
  } else {
    expect(got.program, what).toBeNull();
    expect(got.diagnostics, what).toEqual(want.diagnostics);
  }
  return asReadDecides(all);
}

const crafted: Record<string, string> = {
  'calls forward and across objects': 'on startup\n  a (1)\nend\non a (x)\n  b ()\nend\nset s\n  on openset\n    a (2)\n    c ()\n  end\n  on c\n  end\nendset\non b\nend\n',
  'a global handler shadowed later by the object': 'on go\nend\nset s\n  on openset\n    go ()\n  end\n  on go\n  end\nendset\n',
  'a later handler read as a variable': 'on a\n  x = later\nend\non later\nend\n',
  'unknown names and wrong counts': 'on a\n  nope (1)\n  b (1, 2)\n  y = z\nend\non b (p)\nend\n',
  'a global declared below handlers it does not change': 'on a\n  x = 1\nend\nglobal h\non b\n  h = 2\nend\n',
  'a handler defined twice': 'on a\nend\non a (p)\nend\nset s\n  on a\n  end\n  on a\n  end\nendset\n',
  'properties after handlers that do not use them': 'actor v\n  on b\n    q = 1\n  end\n  property p = 2\nendactor\n',
};

describe('compiling as read', () => {
  it('makes the program of whole trees for every script and world in the repository', () => {
    let decided = 0;
    const worlds = new Set<readonly SourceText[]>();
    for (const e of CORPUS) {
      if (e.world.length > 0) worlds.add(e.world);
      else if (agree([{ file: e.file, source: e.source }], e.file)) decided++;
    }
    for (const w of worlds) agree(w, 'the demo world');
    expect(decided).toBeGreaterThan(100);
  });

  it('makes the same program or the same diagnostics for crafted scripts and a generated one', () => {
    for (const [name, source] of Object.entries(crafted)) expect(agree([{ file: 'x.pw', source }], name), name).toBe(true);
    // a declaration below a handler that read the name as a local: left to the trees
    const late: Record<string, string> = {
      'a global declared below the handlers it changes': 'on a\n  g = 1\n  h = 2\nend\nglobal h\non b\n  h = g\nend\nglobal g\n',
      'a property declared below the handler it changes': 'actor v\n  on b\n    p = 1\n  end\n  property p = 2\nendactor\n',
    };
    for (const [name, source] of Object.entries(late)) expect(agree([{ file: 'x.pw', source }], name), name).toBe(false);
    expect(agree([{ file: 'generated.pw', source: generateScript(200_000) }], 'generated')).toBe(true);
  });

  it('agrees on mutated scripts', () => {
    fc.assert(
      fc.property(mutatedInput, (input) => {
        agree(mutatedSources(input), 'mutated');
      }),
      { numRuns: RUNS },
    );
  });
});
