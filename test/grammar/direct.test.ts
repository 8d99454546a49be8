import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readDirect } from '../../grammar/direct.ts';
import { MAX_NESTING } from '../../grammar/roles.ts';
import { parseFile, parseFileCarefully, parseRepl, parseReplCarefully } from '../../grammar/parser.ts';
import { CORPUS, mutation, mutate, randomText, tokenSoup } from '../fuzz/text.ts';
import { FUZZ_RUNS, LONG } from '../fuzz/config.ts';
import { generateScript } from '../bench/pw-entry.ts';

// The direct reader must build exactly the AST of the careful pass for every script it
// accepts, and accept every script the careful pass reads without errors. Positions are
// part of the AST, so they are compared too.

const ROOT = join(fileURLToPath(import.meta.url), '../../..');
const RUNS = LONG ? FUZZ_RUNS : 1000;

/** Items with every lazy handler's body read, as plain data. */
function materialized(items: readonly unknown[]): unknown[] {
  return items.map((item) => {
    const i = item as { type: string; body?: unknown; handlers?: unknown[] };
    if (i.type === 'handler') return { ...i, body: i.body };
    if (i.type === 'object') return { ...i, handlers: materialized(i.handlers!) };
    return i;
  });
}

function agreeFile(source: string, what: string): boolean {
  const direct = readDirect(source, false);
  const careful = parseFileCarefully(source, 'x.pw');
  if (direct !== null) {
    expect(careful.errors, `${what}: the direct reader accepted a script with errors`).toEqual([]);
    expect(direct, what).toEqual(careful.ast.items);
    // bodies only checked at first, then read again on demand, in another order
    const lazy = readDirect(source, false, true);
    expect(lazy, `${what}: lazy bodies declined`).not.toBeNull();
    expect(materialized(lazy!.slice().reverse()).reverse(), `${what}, lazy bodies`).toEqual(careful.ast.items);
  } else {
    expect(readDirect(source, false, true), `${what}: lazy bodies accepted`).toBeNull();
    if (careful.errors.length === 0) {
      expect.fail(`${what}: the direct reader declined a script without errors:\n${source}`);
    }
  }
  return direct !== null;
}

function agreeRepl(source: string, what: string): void {
  const direct = readDirect(source, true);
  const careful = parseReplCarefully(source, '<repl>');
  if (direct !== null) {
    expect(careful.errors, `${what}: accepted REPL input with errors`).toEqual([]);
    expect(direct, what).toEqual(careful.items);
  } else if (careful.errors.length === 0) {
    expect.fail(`${what}: declined REPL input without errors:\n${source}`);
  }
}

const crafted: Record<string, string> = {
  'line ends of every kind': 'on a\r\n  x = 1\r  y = 2\n\r\n  z = "3"\rend\r\n',
  'blank and comment lines, tabs, form feeds': '\n\n-- top\non a\t-- after\n\t\fx = 1 -- c\n  \n  -- only a comment\n\vy = 2\nend',
  'a byte-order mark and non-breaking spaces': '\ufeffon a\u00a0(p)\n  x\u00a0=\u00a0p\nend\n',
  'escapes in strings': 'on a\n  s = "q\\"uote \\\\ n\\n t\\t"\n  t = "é💧"\n  u = ""\nend\n',
  'numbers of every shape': 'on a\n  x = [0, 007, 2.5, 1e3, 25e-2, 1.5E+2]\n  y = 1..2\nend\n',
  'keywords in any case': 'ON A (P)\n  IF P THEN RETURN TRUE ELSEIF NOT P THEN RETURN FALSE ELSE RETURN VOID ENDIF\nEND\nSet S\n  Property X = Self\nEndSet\n',
  'precedence and prefixes': 'on a\n  x = not a = b and - - c * d mod e .. f or g <> h | i & j\n  y = -x[1][2]\n  (x) = 1\n  x[1][2] = 3\n  f (1)[2]\nend\n',
  'assignments of comparisons': 'on a\n  x = a < b\n  x[1] = a = b\n  y = a < not b < c\n  z = a = b\nend\n',
  'one-line blocks and semicolons': 'on a; x = 1; end\non b\n  if x then print (1) endif\n  while x; x = x - 1; endwhile\n  for i = 1 to 3 step 1; endfor\nend\n',
  'every statement':
    'global g, h\non noloopcheck a (p, q)\n  global k\n  for i = p to q\n    if i then break else continue endif\n  endfor\n  return\nend\nactor v\n  property p\n  on b\n  end\nendactor\nprop w\nendprop\nflat f\nendflat\n',
};

const broken: Record<string, string> = {
  'a statement outside handlers': 'x = 1\n',
  'a bad character': 'on a\n  x = 1 # 2\nend\n',
  'an unknown escape': 'on a\n  x = "\\q"\nend\n',
  'a number too large': 'on a\n  x = 1e400\nend\n',
  'an unterminated string': 'on a\n  x = "open\nend\n',
  'single quotes': "on a\n  x = 'no'\nend\n",
  'chained comparisons': 'on a\n  x = a < b < c\nend\n',
  'chained comparisons in a call': 'on a\n  f (1 = 2 <> 3)\nend\n',
  'chained comparisons after not': 'on a\n  if not a < b < c then\n  endif\nend\n',
  'a second else': 'on a\n  if x then\n  else\n  else\n  endif\nend\n',
  'an elseif after the else': 'on a\n  if x then\n  else\n  elseif y then\n  endif\nend\n',
  'a wrong closer': 'set s\nendactor\n',
  'a missing end': 'on a\n  x = 1\n',
  'a call without parentheses': 'on a\n  print x\nend\n',
  'a property in a handler': 'on a\n  property p\nend\n',
};

describe('the direct reader', () => {
  it("builds the careful pass's AST for every script in the repository", () => {
    let accepted = 0;
    for (const e of CORPUS) if (agreeFile(e.source, e.file)) accepted++;
    for (const f of readdirSync(join(ROOT, 'stdlib'))) agreeFile(readFileSync(join(ROOT, 'stdlib', f), 'utf8'), f);
    expect(accepted).toBeGreaterThan(100);
  });

  it("builds the careful pass's AST for crafted scripts and a big generated one", () => {
    for (const [name, source] of Object.entries(crafted)) expect(agreeFile(source, name), name).toBe(true);
    expect(agreeFile(generateScript(200_000), 'generated')).toBe(true);
  });

  it('declines scripts with mistakes, and parseFile reports them as before', () => {
    for (const [name, source] of Object.entries(broken)) {
      expect(readDirect(source, false), name).toBeNull();
      const r = parseFile(source, 'x.pw');
      expect(r.errors.length, name).toBeGreaterThan(0);
      expect(r).toEqual(parseFileCarefully(source, 'x.pw'));
    }
  });

  it('reads nesting up to the limit, and declines deeper nesting, which the careful pass reports', () => {
    // scripts nested `n` levels deep (blocks and brackets together), or with `n` prefix operators in a row
    const shapes: Record<string, (n: number) => string> = {
      brackets: (n) => `on a\n  x = [${'('.repeat(n - 2)}1${')'.repeat(n - 2)}]\nend\n`,
      'blocks and calls': (n) => `on a\n${'if x then\n'.repeat(n - 4)}while f (g (1))\nendwhile\n${'endif\n'.repeat(n - 4)}end\n`,
      'brackets in an if condition': (n) => `on a\n  if ${'('.repeat(n - 2)}x${')'.repeat(n - 2)} then\n  endif\nend\n`,
      'brackets in a for loop': (n) => `set s\n  on a\n    for i = 1 to x${'[1'.repeat(n - 3)}${']'.repeat(n - 3)}\n    endfor\n  end\nendset\n`,
      'prefixes in a row': (n) => `on a\n  x = 1 - ${'not '.repeat(n - 2)}- 1\nend\n`,
    };
    for (const [name, shape] of Object.entries(shapes)) {
      agreeFile(shape(MAX_NESTING), `${name}, at the limit`);
      expect(readDirect(shape(MAX_NESTING), false), `${name}, at the limit`).not.toBeNull();
      const deeper = shape(MAX_NESTING + 1);
      expect(readDirect(deeper, false), `${name}, past the limit`).toBeNull();
      const r = parseFile(deeper, 'x.pw');
      expect(r.errors.map((e) => e.message).join('\n'), `${name}, past the limit`).toMatch(/nested too deeply|too many "not" and "-" in a row/);
      expect(r).toEqual(parseFileCarefully(deeper, 'x.pw'));
    }
  });

  it('reads REPL input as the careful pass does', () => {
    for (const [name, source] of Object.entries({ ...crafted, ...broken })) agreeRepl(source, name);
    agreeRepl('x = 1\nprint (x)\non h\nend\nif x then y = 2 endif\n', 'statements and items');
    expect(parseRepl('x = 1', '<repl>')).toEqual({ items: parseReplCarefully('x = 1', '<repl>').items, errors: [], incomplete: false });
  });

  it('agrees with the careful pass on random and mutated text', () => {
    const opts = { numRuns: RUNS, interruptAfterTimeLimit: LONG ? 3_600_000 : 20_000 };
    fc.assert(
      fc.property(fc.oneof(tokenSoup, randomText), (source) => {
        agreeFile(source, 'random text');
        agreeRepl(source, 'random text');
      }),
      opts,
    );
    fc.assert(
      fc.property(fc.nat(CORPUS.length - 1), fc.array(mutation, { minLength: 1, maxLength: 3 }), (i, ms) => {
        let source = CORPUS[i]!.source;
        for (const m of ms) source = mutate(source, m);
        agreeFile(source, `${CORPUS[i]!.file} ${JSON.stringify(ms)}`);
      }),
      opts,
    );
  });
});
