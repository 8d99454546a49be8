// Groups typed lines into what the REPL runs at once: a command (a line starting with
// ":"), or a statement, or a block that has been closed by its terminator.
import { parseRepl, type ReplParse } from '../../grammar/parser.ts';

/** A complete group of lines, and for code its parse, so that it is not parsed again to run. */
export interface Group {
  text: string;
  /** null for a `:command` */
  parsed: ReplParse | null;
}

export class LineGrouper {
  private lines: string[] = [];

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
    if (this.lines.length === 0) {
      if (line.trim() === '') return null;
      if (isCommand(line)) return { text: line.trim(), parsed: null };
    }
    this.lines.push(line);
    const text = this.lines.join('\n');
    const parsed = parseRepl(text, '<repl>');
    if (parsed.incomplete) return null;
    this.lines = [];
    return { text, parsed };
  }

  /** Gives up on an unfinished block; returns what was buffered. */
  reset(): string {
    const text = this.buffered;
    this.lines = [];
    return text;
  }
}

export function isCommand(line: string): boolean {
  return /^\s*:[a-zA-Z]/.test(line);
}
