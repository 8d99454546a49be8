// A code frame: the offending line with its neighbours and a caret under the spot.

// Where each line of the last source framed starts. Errors come in runs from one file,
// and splitting a big script again for every one of a thousand errors took seconds.
let framedSource: string | null = null;
let lineStarts: number[] = [];

function linesOf(source: string): number[] {
  if (source !== framedSource) {
    const starts = [0];
    for (let i = 0; i < source.length; i++) {
      const c = source.charCodeAt(i);
      if (c === 10 || (c === 13 && source.charCodeAt(i + 1) !== 10)) starts.push(i + 1);
    }
    framedSource = source;
    lineStarts = starts;
  }
  return lineStarts;
}

function lineText(source: string, starts: number[], n: number): string {
  if (n < 1 || n > starts.length) return '';
  const end = n < starts.length ? starts[n] : source.length;
  return source.slice(starts[n - 1], end).replace(/\r?\n$|\r$/, '');
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
    const whole = lineText(source, starts, n).replace(/\t/g, ' ');
    // a very long line (a generated script, a 1 MB literal) is cut to the part around the spot
    const long = whole.length > MAX_SHOWN;
    const from = long && n === line && col - 1 > MAX_SHOWN - WINDOW_BEFORE ? col - 1 - WINDOW_BEFORE : 0;
    const text = long ? (from > 0 ? '…' : '') + whole.slice(from, from + MAX_SHOWN) + (from + MAX_SHOWN < whole.length ? '…' : '') : whole;
    const mark = n === line ? '>' : ' ';
    out.push(`${mark} ${String(n).padStart(width)} | ${text}`);
    if (n === line) {
      const shownCol = col - from + (from > 0 ? 1 : 0);
      const left = whole.length - col + 1;
      const caretLen = Math.max(1, Math.min(length, left > 0 ? left : 1, MAX_SHOWN));
      out.push(`  ${' '.repeat(width)} | ${' '.repeat(Math.max(0, shownCol - 1))}${'^'.repeat(caretLen)}`);
    }
  }
  return out.join('\n');
}
