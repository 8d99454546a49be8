import { describe, it, expect } from 'vitest';
import { lex } from '../../grammar/lexer.ts';
import type { TokenType } from 'chevrotain';
import * as T from '../../grammar/lexer.ts';
import { BLOCKS } from '../../grammar/roles.ts';

function kinds(source: string): string[] {
  return lex(source).tokens.map((t) => t.tokenType.name);
}

function images(source: string): string[] {
  return lex(source).tokens.map((t) => t.image);
}

describe('lexer', () => {
  it('splits numbers, including exponents and decimals', () => {
    expect(images('12 0.5 1e3 2.5e-3 7E+2')).toEqual(['12', '0.5', '1e3', '2.5e-3', '7E+2']);
    expect(kinds('12 0.5 1e3 2.5e-3')).toEqual(['NumberLit', 'NumberLit', 'NumberLit', 'NumberLit']);
  });

  it('lexes 1..2 as a number, "..", a number', () => {
    expect(kinds('1..2')).toEqual(['NumberLit', 'Concat', 'NumberLit']);
    expect(images('1..2')).toEqual(['1', '..', '2']);
    expect(images('1.5..2')).toEqual(['1.5', '..', '2']);
  });

  it('tells keywords from names, case-insensitively', () => {
    expect(kinds('if IF If iffy endif end endset ending')).toEqual(['If', 'If', 'If', 'Identifier', 'Endif', 'End', 'Endset', 'Identifier']);
    expect(kinds('prop property properties else elseif elsewhere')).toEqual(['Prop', 'Property', 'Identifier', 'Else', 'Elseif', 'Identifier']);
    expect(kinds('noloopcheck not note to toe step steps self selfie')).toEqual(['Noloopcheck', 'Not', 'Identifier', 'To', 'Identifier', 'Step', 'Identifier', 'Self', 'Identifier']);
  });

  it('knows every keyword', () => {
    const words =
      'set actor prop flat endset endactor endprop endflat property on end noloopcheck global if then ' +
      'elseif else endif while endwhile for to step endfor break continue return and or not mod true false void self';
    for (const w of words.split(' ')) {
      expect(kinds(w), w).not.toEqual(['Identifier']);
      expect(kinds(w.toUpperCase()), w).toEqual(kinds(w));
      expect(kinds(`${w}x`), w).toEqual(['Identifier']);
    }
  });

  it('lexes operators and punctuation, longest first', () => {
    expect(images('a<>b<=c<d>=e>f=g..h+i-j*k/l&m|n(o)[p],q;')).toEqual([
      'a',
      '<>',
      'b',
      '<=',
      'c',
      '<',
      'd',
      '>=',
      'e',
      '>',
      'f',
      '=',
      'g',
      '..',
      'h',
      '+',
      'i',
      '-',
      'j',
      '*',
      'k',
      '/',
      'l',
      '&',
      'm',
      '|',
      'n',
      '(',
      'o',
      ')',
      '[',
      'p',
      ']',
      ',',
      'q',
      ';',
    ]);
  });

  it('skips comments but keeps the newline that ends them', () => {
    expect(kinds('x -- a comment ( "\ny')).toEqual(['Identifier', 'Newline', 'Identifier']);
    expect(kinds('x = 5 - 3')).toEqual(['Identifier', 'Equals', 'NumberLit', 'Minus', 'NumberLit']);
    expect(kinds('"a -- not a comment"')).toEqual(['StringLit']);
  });

  it('folds blank and comment-only lines into one newline', () => {
    expect(kinds('a\n\n   -- note\n\t\n  b\r\nc')).toEqual(['Identifier', 'Newline', 'Identifier', 'Newline', 'Identifier']);
    const b = lex('a\n\n  -- note\n  b').tokens[2]!;
    expect([b.image, b.startLine, b.startColumn]).toEqual(['b', 4, 3]);
  });

  it('decodes string escapes', () => {
    const t = lex('"say \\"hi\\"\\n\\tback\\\\slash"').tokens[0]!;
    expect(t.payload).toBe('say "hi"\n\tback\\slash');
    expect(lex('""').tokens[0]!.payload).toBe('');
  });

  it('gives 1-based positions', () => {
    const tokens = lex('on startup\n  x = "a"').tokens;
    const at = tokens.map((t) => `${t.image.trim() || 'NL'}@${t.startLine}:${t.startColumn}`);
    expect(at).toEqual(['on@1:1', 'startup@1:4', 'NL@1:11', 'x@2:3', '=@2:5', '"a"@2:7']);
  });

  it('reports an unterminated string with its position, and keeps going', () => {
    const r = lex('x = "abc\ny = 2');
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatchObject({ line: 1, col: 5, length: 4 });
    expect(r.problems[0]!.message).toMatch(/^unterminated string/);
    expect(r.tokens.map((t) => t.image.trim() || 'NL')).toEqual(['x', '=', '"abc', 'NL', 'y', '=', '2']);
  });

  it('reports an unknown escape at the backslash', () => {
    const r = lex('x = "a\\qb"');
    expect(r.problems).toEqual([expect.objectContaining({ line: 1, col: 7, length: 2, message: expect.stringMatching(/unknown escape "\\q"/) })]);
  });

  it('reports unexpected characters in plain words', () => {
    const r = lex("x = 3 @ 4\ny = 'a b' .. z");
    expect(r.problems.map((p) => [p.line, p.col, p.message])).toEqual([
      [1, 7, 'unexpected character "@"'],
      [2, 5, 'strings use double quotes: "like this"'],
    ]);
    // the quoted text still reads as one string, so the parser sees a sensible line
    expect(r.tokens.slice(-3).map((t) => [t.image, t.payload])).toEqual([
      ["'a b'", 'a b'],
      ['..', undefined],
      ['z', undefined],
    ]);
  });

  it('never throws on odd input', () => {
    for (const s of ['"', '\\', '"\\', '\u0000\u00ff', '..."', '1e', '--', '\r', '\uFEFFx']) {
      expect(() => lex(s), JSON.stringify(s)).not.toThrow();
    }
  });
});

describe('the table of blocks (roles.ts)', () => {
  const inCategory = (t: TokenType, c: TokenType): boolean => (t.CATEGORIES ?? []).includes(c);
  const names = (ts: TokenType[]): string[] => ts.map((t) => t.name).sort();

  it('agrees with the token categories the grammar matches through', () => {
    const objects = BLOCKS.filter((b) => b.level === 'object');
    expect(names(T.allTokens.filter((t) => inCategory(t, T.ObjectOpener)))).toEqual(names(objects.map((b) => b.opener)));
    expect(names(T.allTokens.filter((t) => inCategory(t, T.ObjectCloser)))).toEqual(names(objects.map((b) => b.closer)));
    expect(names(T.allTokens.filter((t) => inCategory(t, T.Closer)))).toEqual(names(BLOCKS.flatMap((b) => [b.closer, ...b.parts])));
  });
});
