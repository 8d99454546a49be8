// Absurdly deep nesting (thousands of parentheses, a thousand-deep if) would exhaust
// the host's stack in the recursive parser or compiler. It is caught and reported as
// a script error at the place where the nesting is deepest.

export const NESTING_MESSAGE = 'this is nested too deeply to compile: split the expression or the blocks into smaller pieces';

/** Position of the deepest bracket nesting, skipping strings and comments (1-based). */
export function deepestPoint(source: string): { line: number; col: number } {
  let depth = 0;
  let best = -1;
  let at = { line: 1, col: 1 };
  let line = 1;
  let col = 1;
  for (let i = 0; i < source.length; i++, col++) {
    const c = source[i];
    if (c === '\n') {
      line++;
      col = 0;
    } else if (c === '"') {
      for (i++, col++; i < source.length && source[i] !== '"' && source[i] !== '\n'; i++, col++) if (source[i] === '\\') (i++, col++);
    } else if (c === '-' && source[i + 1] === '-') {
      while (i + 1 < source.length && source[i + 1] !== '\n') (i++, col++);
    } else if (c === '(' || c === '[') {
      depth++;
      if (depth > best) {
        best = depth;
        at = { line, col };
      }
    } else if (c === ')' || c === ']') {
      depth = Math.max(0, depth - 1);
    }
  }
  return at;
}

export function isStackOverflow(err: unknown): boolean {
  return err instanceof RangeError && /call stack/i.test(err.message);
}
