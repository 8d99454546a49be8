import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import type * as A from '../../grammar/ast.ts';
import { isIncomplete, parseFile, parseRepl } from '../../grammar/parser.ts';
import { errorsOf } from './helpers.ts';

describe('every syntax error is reported, once, where it is', () => {
  it('a file with three separate errors reports exactly three, with positions', () => {
    const src = [
      'on startup', //        1
      '  x = 1 +', //         2: missing operand
      '  if x > 1', //        3: missing then
      '    print (x)', //     4
      '  endif', //           5
      '  y = (2 * 3', //      6: missing )
      '  z = 4', //           7
      'end', //               8
    ].join('\n');
    const r = parseFile(src, 'three.pw');
    expect(r.errors.map((e) => [e.pos.line, e.pos.col, e.length, e.message])).toEqual([
      [2, 10, 1, 'expected an expression after "+"'],
      [3, 11, 1, 'expected "then" after the if condition'],
      [6, 13, 1, 'expected ")" to close the "("'],
    ]);
    expect(r.errors.every((e) => e.file === 'three.pw')).toBe(true);
    // the rest of the file still parses
    const h = r.ast.items[0] as A.Handler;
    expect(h.body.map((s) => s.type)).toEqual(['assign', 'if', 'assign', 'assign']);
  });

  it('keeps going across handlers and object blocks', () => {
    const src = 'set a\n  on x\n    p (\n  end\nendset\non y\n  q = )\nend\nactor b\n  on z\n    if then\n    endif\n  end\nendactor\n';
    expect(errorsOf(src)).toEqual(['3:8 expected an argument or ")" after "("', '7:7 expected an expression after "="', '11:8 expected a condition after "if"']);
  });

  it('never reports two errors for the same spot or the same statement', () => {
    expect(errorsOf('on a\n  x = 3 @ 4\nend')).toEqual(['2:9 unexpected character "@"']);
    expect(errorsOf('on a\n  x = "abc\n  y = 2\nend')).toEqual(['2:7 unterminated string: add the closing " before the end of the line']);
    expect(errorsOf('on a\n  x = ) ) )\nend')).toEqual(['2:7 expected an expression after "="']);
  });

  it('reports errors in separate statements of one line', () => {
    expect(errorsOf('on a\n  x = ); y = 1 +\nend')).toEqual(['2:7 expected an expression after "="', '2:17 expected an expression after "+"']);
  });
});

describe('block-closing messages', () => {
  it('names the unclosed opener and where it was opened', () => {
    expect(errorsOf('on a\n  while x\n    foo ()\nend')).toEqual(['4:1 expected "endwhile" to close the while loop opened at 2:3']);
    expect(errorsOf('on a\n  for i = 1 to 3\n    foo ()\nend')).toEqual(['4:1 expected "endfor" to close the for loop opened at 2:3']);
    expect(errorsOf('on a\n  if x then\n    foo ()\nend')).toEqual(['4:1 expected "endif" to close the "if" opened at 2:3']);
    expect(errorsOf('on startup\n  foo ()\n')).toEqual(['2:9 expected "end" to close the handler "startup" opened at 1:1']);
    expect(errorsOf('set engine\n  on a\n  end\n')).toEqual(['3:6 expected "endset" to close the set "engine" opened at 1:1']);
  });

  it('a missing end before the next handler', () => {
    expect(errorsOf('on a\n  x = 1\non b\n  y = 2\nend\n')).toEqual(['3:1 expected "end" to close the handler "a" opened at 1:1']);
  });

  it('a closer inside a block closes the enclosing construct', () => {
    expect(errorsOf('on a\n  while x\n    if y then\n      z ()\n  endwhile\nend')).toEqual(['5:3 expected "endif" to close the "if" opened at 3:5']);
    expect(errorsOf('set s\n  on a\n    x = 1\nendset\n')).toEqual(['4:1 expected "end" to close the handler "a" opened at 2:3']);
    expect(errorsOf('actor s\n  on a\n    x = 1\nendprop\n')).toEqual(['4:1 expected "end" to close the handler "a" opened at 2:3']);
  });

  it('the wrong object closer', () => {
    expect(errorsOf('set a\n  property p\nendactor\n')).toEqual(['3:1 expected "endset" to close the set "a" opened at 1:1, not "endactor"']);
  });

  it('closers without an opener', () => {
    expect(errorsOf('endif\n')).toEqual(['1:1 "endif" without a matching "if"']);
    expect(errorsOf('on a\n  endwhile\nend\nend\n')).toEqual(['2:3 "endwhile" without a matching "while"', '4:1 "end" without a matching "on"']);
    expect(errorsOf('on a\n  else\nend')).toEqual(['2:3 "else" without a matching "if"']);
    expect(errorsOf('endset')).toEqual(['1:1 "endset" without a matching "set"']);
  });

  it('else and elseif out of order', () => {
    expect(errorsOf('on a\n  if x then\n  else\n  elseif y then\n  else\n  endif\nend')).toEqual([
      '4:3 "elseif" cannot come after the "else" at 3:3',
      '5:3 an "if" can have only one "else" (the first is at 3:3)',
    ]);
  });
});

describe('messages in plain words', () => {
  it('the usual mistakes', () => {
    expect(errorsOf('on a\n  if x\n  endif\nend')).toEqual(['2:7 expected "then" after the if condition']);
    expect(errorsOf('on a\n  if x then\n  elseif y\n  endif\nend')).toEqual(['3:11 expected "then" after the elseif condition']);
    expect(errorsOf('on a\n  for = 1 to 2 endfor\nend')).toEqual(['2:7 expected a loop variable name after "for"']);
    expect(errorsOf('on a\n  for i 1 to 2 endfor\nend')).toEqual(['2:9 expected "=" after the loop variable, as in: for i = 1 to 10']);
    expect(errorsOf('on a\n  for i = 1 2 endfor\nend')).toEqual(['2:13 expected "to" after the start value of the for loop']);
    expect(errorsOf('on\nend')).toEqual(['1:3 expected a handler name after "on"']);
    expect(errorsOf('on a (x y)\nend')).toEqual(['1:9 expected "," or ")" in the parameter list']);
    expect(errorsOf('set\nendset')).toEqual(['1:4 expected a name after "set"']);
    expect(errorsOf('on a\n  global\nend')).toEqual(['2:9 expected a variable name after "global"']);
    expect(errorsOf('on a\n  f (1 2)\nend')).toEqual(['2:8 expected "," or ")" after the argument']);
    expect(errorsOf('on a\n  x = [1 2]\nend')).toEqual(['2:10 expected "," or "]" after the list item']);
    expect(errorsOf('on a\n  x = y[1\nend')).toEqual(['2:10 expected "]" after the index']);
    expect(errorsOf('on a\n  x = not\nend')).toEqual(['2:10 expected an expression after "not"']);
    expect(errorsOf('on a\n  while\n  endwhile\nend')).toEqual(['2:8 expected a condition after "while"']);
  });

  it('calls need parentheses', () => {
    expect(errorsOf('on a\n  print x\nend')).toEqual(['2:9 to call "print", put its arguments in parentheses: print (…)']);
  });

  it('two statements on one line need a separator', () => {
    expect(errorsOf('on a\n  x = 1 y = 2\nend')).toEqual(['2:9 expected the end of the line or ";" after the statement, found "y"']);
  });

  it('misplaced things', () => {
    expect(errorsOf('x = 1\n')).toEqual(['1:1 this statement is outside any handler: put it inside "on NAME … end"']);
    expect(errorsOf('property p\n')).toEqual(['1:1 "property" declarations go inside a set, actor, prop or flat block']);
    expect(errorsOf('on a\n  property p\nend')).toEqual(['2:3 "property" declarations go directly inside a set, actor, prop or flat block, not inside a handler']);
    expect(errorsOf('set s\n  x = 1\nendset')).toEqual(['2:3 only property declarations and handlers can go inside a set block; put statements inside a handler']);
    expect(errorsOf('on a\n  )\n  then\n  * 2\n  to\nend')).toEqual([
      '2:3 ")" without a matching "("',
      '3:3 "then" without a matching "if"',
      '4:3 expected an expression before "*"',
      '5:3 "to" only belongs in a for loop, as in: for i = 1 to 10 step 2',
    ]);
  });

  it('comparisons cannot be chained', () => {
    const r = parseFile('on a\n  if a < b < c then\n  endif\n  x = 1 = 2 = 3\nend', 'c.pw');
    expect(r.errors.map((e) => [e.pos.line, e.pos.col, e.message])).toEqual([
      [2, 12, 'comparisons cannot be chained: "<" follows another comparison; join them with "and", as in: a < b and b < c'],
      [4, 13, 'comparisons cannot be chained: "=" follows another comparison; join them with "and", as in: a < b and b < c'],
    ]);
    expect(errorsOf('on a\n  x = (a < b) < c\n  y = a < b and b < c\nend')).toEqual([]);
  });

  it('lexing errors are syntax problems too', () => {
    const r = parseFile('on a\n  x = "a\\qb"\n  y = #\nend', 'lex.pw');
    expect(r.errors).toEqual([
      { file: 'lex.pw', pos: { line: 2, col: 9 }, length: 2, message: 'unknown escape "\\q" in a string (use \\" \\\\ \\n or \\t)' },
      { file: 'lex.pw', pos: { line: 3, col: 7 }, length: 1, message: 'unexpected character "#"' },
    ]);
  });
});

// Text made of the language's own words, to reach deep into error recovery.
const pieces = [
  'on',
  'end',
  'set',
  'endset',
  'actor',
  'endactor',
  'prop',
  'flat',
  'property',
  'global',
  'if',
  'then',
  'elseif',
  'else',
  'endif',
  'while',
  'endwhile',
  'for',
  'to',
  'step',
  'endfor',
  'break',
  'continue',
  'return',
  'and',
  'or',
  'not',
  'mod',
  'true',
  'void',
  'self',
  'noloopcheck',
  'x',
  'f',
  '1',
  '2.5',
  '"s"',
  '"open',
  "'q'",
  '(',
  ')',
  '[',
  ']',
  ',',
  ';',
  '=',
  '<>',
  '<',
  '>=',
  '..',
  '+',
  '-',
  '*',
  '/',
  '&',
  '|',
  '\n',
  '\n',
  '\n',
  ' ',
  '-- c\n',
  '@',
  '\\',
];

const looksInternal = /-->|<--|Expecting|token of type|EOF|Identifier|NumberLit|BinOp|Closer|Junk|\bSep\b|undefined|NaN/;

describe('robustness', () => {
  it('never throws, and every problem is well-formed, ordered and at a distinct spot', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 60 }), (words) => {
        const src = words.join(' ');
        const lines = src.split(/\r\n|\r|\n/);
        for (const r of [parseFile(src, 'f.pw'), parseRepl(src, 'r.pw')]) {
          let last = { line: 0, col: 0 };
          for (const e of r.errors) {
            expect(e.message).not.toMatch(looksInternal);
            expect(e.length).toBeGreaterThanOrEqual(1);
            expect(e.pos.line).toBeGreaterThanOrEqual(1);
            expect(e.pos.line).toBeLessThanOrEqual(lines.length);
            expect(e.pos.col).toBeGreaterThanOrEqual(1);
            expect(e.pos.col).toBeLessThanOrEqual((lines[e.pos.line - 1]?.length ?? 0) + 1);
            const after = e.pos.line > last.line || (e.pos.line === last.line && e.pos.col > last.col);
            expect(after).toBe(true);
            last = e.pos;
          }
        }
      }),
      { numRuns: 400 },
    );
  });

  it('valid input gives no errors however it is spaced', () => {
    const src = 'on a(x,y);if x then;y=1;elseif y then;else;endif;while x<1 x=x+1 endwhile;for i=1 to 2 step 1;endfor;end';
    expect(errorsOf(src)).toEqual([]);
  });
});

describe('deep nesting', () => {
  it('is reported instead of overflowing the stack', () => {
    const deep = (n: number) => `on a\n  x = ${'('.repeat(n)}1${')'.repeat(n)}\nend`;
    expect(errorsOf(deep(150))).toEqual([]);
    expect(errorsOf(deep(5000))).toEqual(['2:206 this is nested too deeply: more than 200 levels of blocks and brackets']);
    const ifs = `on a\n${'if x then\n'.repeat(3000)}${'endif\n'.repeat(3000)}end`;
    expect(errorsOf(ifs)).toEqual(['201:1 this is nested too deeply: more than 200 levels of blocks and brackets']);
    expect(errorsOf(`on a\n  x = ${'not '.repeat(5000)}1\nend`)).toEqual(['2:807 too many "not" and "-" in a row (more than 200)']);
    expect(isIncomplete(`on a\n  x = ${'['.repeat(5000)}`)).toBe(false);
    // an error deep inside nesting the guard lets through: its own message, or, where
    // even the recovering parser runs out of stack, the nesting named at its deepest
    // point, never at the top of the file
    const blocks = (n: number) => `on a\n${'if x then\n'.repeat(n)}  x = (1\n${'endif\n'.repeat(n)}end`;
    for (const n of [60, 150, 197]) {
      const errs = errorsOf(blocks(n));
      expect(errs.length, `${n} blocks`).toBeGreaterThan(0);
      expect(errs[0], `${n} blocks`).toMatch(new RegExp(`^${n + 2}:(9 expected "\\)" to close|7 this script is nested too deeply to read)`));
    }
  });

  it('long flat expressions and many statements are fine', () => {
    expect(errorsOf(`on a\n  x = ${'1 + '.repeat(50000)}1\nend`)).toEqual([]);
    expect(errorsOf(`on a\n${'  x = x + 1\n'.repeat(20000)}end`)).toEqual([]);
  });
});
