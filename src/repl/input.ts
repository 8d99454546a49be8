// Groups typed lines into what the REPL runs at once: a command (a line starting with
// ":"), or a statement, or a block that has been closed by its terminator.
import { parseRepl, type ReplParse } from '../../grammar/parser.ts';

/** A complete group of lines, and for code its parse, so that it is not parsed again to run. */
export interface Group {
  text: string;
  /** null for a `:command` */
  parsed: ReplParse | null;
  /** Set instead when the entry grew past MAX_ENTRY_CHARS: how long it was. Nothing of it runs. */
  tooLong?: number;
}

/**
 * Most characters one entry (a line, or the lines of a block) may hold. Every line of
 * a block parses the block so far again, so a paste of megabytes would take minutes:
 * longer code belongs in a file, for :load.
 */
export const MAX_ENTRY_CHARS = 8192;

export class LineGrouper {
  private lines: string[] = [];
  private size = 0;
  /** After an entry was refused: its remaining lines are skipped, up to the next line at the left margin. */
  private skipping = false;

  /** True while a block waits for more lines (the prompt becomes a continuation prompt). */
  get pending(): boolean {
    return this.lines.length > 0;
  }

  /** The lines of an unfinished block so far. */
  get buffered(): string {
    return this.lines.join('\n');
  }

  /** Adds a line; returns a complete group to run, or null while more lines are needed. */
  push(line: string): Group | null {
    if (this.skipping) {
      // the refused block's own lines are indented; its closing keyword ends it
      if (line.trim() === '' || /^\s/.test(line)) return null;
      this.skipping = false;
      if (/^end\w*\b/i.test(line)) return null;
    }
    if (this.lines.length === 0) {
      if (line.trim() === '') return null;
      if (isCommand(line) && line.length <= MAX_ENTRY_CHARS) return { text: line.trim(), parsed: null };
    }
    const size = this.size + line.length + (this.lines.length > 0 ? 1 : 0);
    if (size > MAX_ENTRY_CHARS) {
      // a block left open: what follows of it is not run out of its place (unless this
      // line, a closing keyword at the left margin, was its end: the next line is new)
      this.skipping = this.lines.length > 0 && !/^end\w*\b/i.test(line);
      this.reset();
      return { text: '', parsed: null, tooLong: size };
    }
    this.lines.push(line);
    this.size = size;
    const text = this.lines.join('\n');
    const parsed = parseRepl(text, '<repl>');
    if (parsed.incomplete) return null;
    this.reset();
    return { text, parsed };
  }

  /** Gives up on an unfinished block; returns what was buffered. */
  reset(): string {
    const text = this.buffered;
    this.lines = [];
    this.size = 0;
    return text;
  }

  /** Forgets a refused entry's remaining lines too (the next line is a fresh start). */
  clear(): void {
    this.reset();
    this.skipping = false;
  }
}

export function isCommand(line: string): boolean {
  return /^\s*:[a-zA-Z]/.test(line);
}
