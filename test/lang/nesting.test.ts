// A file whose parse runs out of stack is reported at its deepest bracket
// (deepestPoint). That place must be where the lexer puts that bracket, whatever the
// line breaks, and whatever brackets strings and comments hold.
import { describe, expect, it } from 'vitest';
import { deepestPoint } from '../../src/compiler/nesting.ts';
import { lex, LBracket, LParen, RBracket, RParen } from '../../grammar/lexer.ts';

/** Where the lexer puts the first bracket at the greatest depth. */
function lexersDeepest(source: string): { line: number; col: number } {
  let depth = 0;
  let best = -1;
  let at = { line: 1, col: 1 };
  for (const t of lex(source).tokens) {
    if (t.tokenType === LParen || t.tokenType === LBracket) {
      if (++depth > best) {
        best = depth;
        at = { line: t.startLine!, col: t.startColumn! };
      }
    } else if (t.tokenType === RParen || t.tokenType === RBracket) {
      depth = Math.max(0, depth - 1);
    }
  }
  return at;
}

const LINES = [
  'on deep (x)',
  '  -- a comment with (((( brackets',
  '  s = "a string (((( with \\" brackets"',
  '  t = "a string cut off by the end of the line ((((',
  '  u = "one that ends in a backslash \\',
  '',
  `  y = ${'('.repeat(300)}x${')'.repeat(300)} + [[1]]`,
  'end',
];

describe('deepestPoint', () => {
  for (const [name, br] of [['\\n', '\n'], ['\\r\\n', '\r\n'], ['\\r', '\r']]) {
    it(`counts lines as the lexer does, with ${name} line breaks`, () => {
      const source = LINES.join(br) + br;
      expect(deepestPoint(source)).toEqual({ line: 7, col: 306 });
      expect(deepestPoint(source)).toEqual(lexersDeepest(source));
    });
  }

  it('counts each kind of line break once in a file that mixes them', () => {
    const source = `on a\r\n\r\r\n\n  x = ((1))\r  y = (((2)))\nend\r`;
    expect(deepestPoint(source)).toEqual({ line: 6, col: 9 });
    expect(deepestPoint(source)).toEqual(lexersDeepest(source));
  });
});
