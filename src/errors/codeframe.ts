// A code frame: the offending line with its neighbours and a caret under the spot.

export function codeFrame(source: string, line: number, col: number, length = 1, context = 1): string {
  const lines = source.split(/\r\n|\r|\n/);
  const first = Math.max(1, line - context);
  const last = Math.min(lines.length, line + context);
  const width = String(last).length;
  const out: string[] = [];
  for (let n = first; n <= last; n++) {
    const text = (lines[n - 1] ?? '').replace(/\t/g, ' ');
    const mark = n === line ? '>' : ' ';
    out.push(`${mark} ${String(n).padStart(width)} | ${text}`);
    if (n === line) {
      const caretLen = Math.max(1, Math.min(length, text.length - col + 1 > 0 ? text.length - col + 1 : 1));
      out.push(`  ${' '.repeat(width)} | ${' '.repeat(Math.max(0, col - 1))}${'^'.repeat(caretLen)}`);
    }
  }
  return out.join('\n');
}
