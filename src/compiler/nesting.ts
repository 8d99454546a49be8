// Absurdly deep nesting (thousands of parentheses, a thousand-deep if) would exhaust
// the host's stack in the recursive parser or compiler. It is caught and reported as
// a script error at the place where the nesting is deepest.

export const NESTING_MESSAGE = 'this is nested too deeply to compile: split the expression or the blocks into smaller pieces';

const LF = 10;
const CR = 13;

/**
 * Position of the deepest bracket nesting, skipping strings and comments (1-based).
 * Lines end at "\r\n", "\r" or "\n", as the lexer reads them.
 */
export function deepestPoint(source: string): { line: number; col: number } {
  const n = source.length;
  const breaksAt = (i: number): boolean => {
    const c = source.charCodeAt(i);
    return c === LF || c === CR;
  };
  let depth = 0;
  let best = -1;
  let at = { line: 1, col: 1 };
  let line = 1;
  let col = 1;
  for (let i = 0; i < n; i++, col++) {
    const c = source[i];
    if (c === '\n' || c === '\r') {
      if (c === '\r' && source[i + 1] === '\n') i++;
      line++;
      col = 0;
    } else if (c === '"') {
      // to the closing quote, or up to the line break that cuts the string off; a
      // backslash takes the next character with it, but never a line break
      while (i + 1 < n && !breaksAt(i + 1)) {
        i++;
        col++;
        if (source[i] === '"') break;
        if (source[i] === '\\' && i + 1 < n && !breaksAt(i + 1)) (i++, col++);
      }
    } else if (c === '-' && source[i + 1] === '-') {
      while (i + 1 < n && !breaksAt(i + 1)) (i++, col++);
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
