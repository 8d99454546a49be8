// The prompt's line editor: text, cursor and history, with no terminal in it, so the
// keys the UI maps onto it can be tested directly.

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
    this.value = this.value.slice(0, this.cursor - 1) + this.value.slice(this.cursor);
    this.cursor--;
  }

  deleteForward(): void {
    this.value = this.value.slice(0, this.cursor) + this.value.slice(this.cursor + 1);
  }

  left(): void {
    this.cursor = Math.max(0, this.cursor - 1);
  }

  right(): void {
    this.cursor = Math.min(this.value.length, this.cursor + 1);
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
