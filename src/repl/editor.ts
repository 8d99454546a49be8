// The prompt's line editor: text, cursor and history, with no terminal in it, so the
// keys the UI maps onto it can be tested directly. The cursor moves by whole
// characters as a reader sees them: an emoji (two UTF-16 units, or several joined), a
// letter with a combining accent or a flag is one step, never split in half.

let segmenter: Intl.Segmenter | null = null;
/** Made on first use: only the interactive prompt needs it. */
function graphemes(): Intl.Segmenter {
  return (segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' }));
}

/** Where the character before index i (a character boundary) starts. */
function charBefore(text: string, i: number): number {
  let start = 0;
  for (const g of graphemes().segment(text)) {
    if (g.index >= i) break;
    start = g.index;
  }
  return start;
}

/** Where the character starting at index i (a character boundary) ends. */
function charAfter(text: string, i: number): number {
  if (i >= text.length) return text.length;
  const g = graphemes().segment(text).containing(i);
  return g === undefined ? text.length : g.index + g.segment.length;
}

export class LineEditor {
  value = '';
  cursor = 0;
  private history: string[] = [];
  /** Index into history while browsing it; history.length means "the line being typed". */
  private browsing = 0;
  private draft = '';

  constructor(private readonly maxHistory = 500) {}

  insert(text: string): void {
    this.value = this.value.slice(0, this.cursor) + text + this.value.slice(this.cursor);
    this.cursor += text.length;
  }

  backspace(): void {
    if (this.cursor === 0) return;
    const start = charBefore(this.value, this.cursor);
    this.value = this.value.slice(0, start) + this.value.slice(this.cursor);
    this.cursor = start;
  }

  deleteForward(): void {
    this.value = this.value.slice(0, this.cursor) + this.value.slice(charAfter(this.value, this.cursor));
  }

  left(): void {
    this.cursor = charBefore(this.value, this.cursor);
  }

  right(): void {
    this.cursor = charAfter(this.value, this.cursor);
  }

  /** The character under the cursor ('' at the end of the line). */
  get atCursor(): string {
    return this.value.slice(this.cursor, charAfter(this.value, this.cursor));
  }

  home(): void {
    this.cursor = 0;
  }

  end(): void {
    this.cursor = this.value.length;
  }

  killToStart(): void {
    this.value = this.value.slice(this.cursor);
    this.cursor = 0;
  }

  killToEnd(): void {
    this.value = this.value.slice(0, this.cursor);
  }

  deleteWordBack(): void {
    const before = this.value.slice(0, this.cursor).replace(/\S*\s*$/, '');
    this.value = before + this.value.slice(this.cursor);
    this.cursor = before.length;
  }

  /** Up: the previous history line (the line being typed is kept as a draft). */
  up(): void {
    if (this.browsing === 0) return;
    if (this.browsing === this.history.length) this.draft = this.value;
    this.browsing--;
    this.show(this.history[this.browsing]);
  }

  down(): void {
    if (this.browsing >= this.history.length) return;
    this.browsing++;
    this.show(this.browsing === this.history.length ? this.draft : this.history[this.browsing]);
  }

  /** Enter: returns the line, records it in history and starts an empty one. */
  take(): string {
    const line = this.value;
    if (line.trim() !== '' && this.history[this.history.length - 1] !== line) {
      this.history.push(line);
      if (this.history.length > this.maxHistory) this.history.shift();
    }
    this.browsing = this.history.length;
    this.draft = '';
    this.value = '';
    this.cursor = 0;
    return line;
  }

  clear(): void {
    this.value = '';
    this.cursor = 0;
    this.browsing = this.history.length;
    this.draft = '';
  }

  private show(text: string): void {
    this.value = text;
    this.cursor = text.length;
  }
}
