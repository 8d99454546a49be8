// Spans for syntax highlighting, read off the language's own lexer (grammar/lexer.ts),
// so an editor colours exactly what the compiler reads.
import { lex, Identifier, NumberLit, StringLit, UnterminatedString, SingleQuotedString, Newline, True, False, Void, Self } from '../../grammar/lexer.ts';
import { BUILTIN_TABLE } from '../builtins/index.ts';

export type HighlightKind = 'keyword' | 'atom' | 'string' | 'number' | 'comment' | 'builtin' | 'name' | 'operator';

export interface HighlightSpan {
  /** Offsets into the text, end exclusive. */
  from: number;
  to: number;
  kind: HighlightKind;
}

const NAME = /^[a-zA-Z_]\w*$/;
const ATOMS = new Set([True, False, Void, Self]);
const STRINGS = new Set([StringLit, UnterminatedString, SingleQuotedString]);
const COMMENT = /--[^\r\n]*/g;

function comments(text: string, from: number, to: number, out: HighlightSpan[]): void {
  COMMENT.lastIndex = from;
  for (let m = COMMENT.exec(text); m !== null && m.index < to; m = COMMENT.exec(text)) {
    out.push({ from: m.index, to: Math.min(to, m.index + m[0].length), kind: 'comment' });
  }
}

/** Highlight spans of a script, in text order; text not covered (spaces, line breaks) is plain. */
export function highlight(text: string): HighlightSpan[] {
  const out: HighlightSpan[] = [];
  let covered = 0;
  for (const t of lex(text).tokens) {
    const from = t.startOffset;
    const to = from + t.image.length;
    // comments are skipped by the lexer, or folded into a line break: they sit between tokens
    if (from > covered) comments(text, covered, from, out);
    covered = to;
    const type = t.tokenType;
    if (type === Newline) {
      comments(text, from, to, out);
      continue;
    }
    let kind: HighlightKind;
    if (STRINGS.has(type)) kind = 'string';
    else if (type === NumberLit) kind = 'number';
    else if (ATOMS.has(type)) kind = 'atom';
    else if (type === Identifier) kind = BUILTIN_TABLE.index.has(t.image.toLowerCase()) ? 'builtin' : 'name';
    // lex () turns a name spelled like a keyword into that keyword
    else if (NAME.test(t.image)) kind = 'keyword';
    else kind = 'operator';
    out.push({ from, to, kind });
  }
  if (text.length > covered) comments(text, covered, text.length, out);
  return out;
}
