// A code frame: the offending line with its neighbours and a caret under the spot.
import { lineAt, lineStarts } from '../../grammar/lexer.ts';
import { visible } from './text.ts';

// Where each line of the last source framed starts. Errors come in runs from one file,
// and splitting a big script again for every one of a thousand errors took seconds.
let framedSource: string | null = null;
let framedStarts: number[] = [];

function linesOf(source: string): number[] {
  if (source !== framedSource) {
    framedSource = source;
    framedStarts = lineStarts(source);
  }
  return framedStarts;
}

/** Longest line shown whole; a longer one is shown as a window around the column. */
const MAX_SHOWN = 160;
const WINDOW_BEFORE = 60;

export function codeFrame(source: string, line: number, col: number, length = 1, context = 1): string {
  const starts = linesOf(source);
  const first = Math.max(1, line - context);
  const last = Math.min(starts.length, line + context);
  const width = String(last).length;
  const out: string[] = [];
  for (let n = first; n <= last; n++) {
    // one mark per control character: an escape sequence in a script never reaches the terminal, and the caret stays aligned
    const whole = visible(lineAt(source, starts, n).replace(/\t/g, ' '));
    // a very long line (a generated script, a 1 MB literal) is cut to the part around the spot
    const long = whole.length > MAX_SHOWN;
    const from = long && n === line && col - 1 > MAX_SHOWN - WINDOW_BEFORE ? col - 1 - WINDOW_BEFORE : 0;
    const text = long ? (from > 0 ? '…' : '') + whole.slice(from, from + MAX_SHOWN) + (from + MAX_SHOWN < whole.length ? '…' : '') : whole;
    const mark = n === line ? '>' : ' ';
    out.push(`${mark} ${String(n).padStart(width)} | ${text}`);
    if (n === line) {
      const shownCol = col - from + (from > 0 ? 1 : 0);
      // no further than the text shown (a window ends before a long line does)
      const left = (long ? Math.min(whole.length, from + MAX_SHOWN) : whole.length) - col + 1;
      const caretLen = Math.max(1, Math.min(length, left > 0 ? left : 1, MAX_SHOWN));
      out.push(`  ${' '.repeat(width)} | ${' '.repeat(Math.max(0, shownCol - 1))}${'^'.repeat(caretLen)}`);
    }
  }
  return out.join('\n');
}
