// Habits from other languages: "==", "+=", "else if", "end if". The careful pass (which
// only runs on a script with a problem) looks for them in the tokens first, reports each
// where it is written, in this language's words, and reads on as if it had been written
// right, so no knock-on errors pile up after it (or at the end of the file).
import { createTokenInstance, type IToken, type TokenType } from 'chevrotain';
import type { Problem } from './messages.ts';
import * as T from './lexer.ts';
import { BLOCKS, blockOf } from './roles.ts';

/** The closing keyword an "end X" meant. */
const END_OF = new Map<TokenType, TokenType>(BLOCKS.filter((b) => b.level === 'statement').map((b) => [b.opener, b.closer]));

const COMPOUND = new Set<TokenType>([T.Plus, T.Minus, T.Star, T.Slash]);

// Tokens carry where they start only; where one ends is its start and its image.
const endOf = (t: IToken): number => t.startOffset + t.image.length;

/** Whether b follows a on the same line with only spaces between (or none, with `touching`). */
function next(a: IToken, b: IToken | undefined, touching = false): b is IToken {
  if (b === undefined || b.startLine !== a.startLine) return false;
  const gap = b.startOffset - endOf(a);
  return touching ? gap === 0 : gap >= 0;
}

function merged(type: TokenType, a: IToken, b: IToken, source: string): IToken {
  const image = source.slice(a.startOffset, endOf(b));
  return createTokenInstance(type, image, a.startOffset, endOf(b) - 1, a.startLine ?? 1, a.startLine ?? 1, a.startColumn ?? 1, (a.startColumn ?? 1) + image.length - 1);
}

function at(t: IToken, length: number, message: string): Problem {
  return { offset: t.startOffset, line: t.startLine ?? 1, col: t.startColumn ?? 1, length, message };
}

/** The source of a statement's tokens from..to (exclusive), as written. */
function text(tokens: IToken[], from: number, to: number, source: string): string {
  if (from >= to) return '';
  return source.slice(tokens[from]!.startOffset, endOf(tokens[to - 1]!));
}

function statementEnd(tokens: IToken[], i: number): number {
  while (i < tokens.length && !(tokens[i]!.tokenType === T.Newline || tokens[i]!.tokenType === T.Semicolon)) i++;
  return i;
}

/**
 * "else if" is also an if inside an else, which is fine when it gets an endif of its
 * own; only when it does not (its block ends first, or the outer if goes on with an
 * else) was "elseif" meant.
 */
function nestedIfCloses(tokens: IToken[], from: number): boolean {
  let depth = 2; // the outer if and the one after "else"
  for (let i = from; i < tokens.length; i++) {
    const type = tokens[i]!.tokenType;
    if (type === T.If) depth++;
    else if (type === T.Endif || (type === T.End && tokens[i + 1]?.tokenType === T.If && next(tokens[i]!, tokens[i + 1]))) {
      if (--depth === 0) return true;
      if (type === T.End) i++;
    } else if ((type === T.Else || type === T.Elseif) && depth === 1) return false;
    else if ((blockOf[tokens[i]!.tokenTypeIdx]?.level ?? 'statement') !== 'statement') return false;
  }
  return false;
}

/** The tokens with each habit replaced by what it meant; a problem for each habit found. */
export function mendHabits(tokens: IToken[], source: string, problems: Problem[]): IToken[] {
  let out: IToken[] | null = null;
  let statementStart = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const u = tokens[i + 1];
    const type = t.tokenType;
    let replace: IToken | null = null;
    if (type === T.Newline || type === T.Semicolon) statementStart = i + 1;
    if (type === T.Else && next(t, u) && u.tokenType === T.If && !nestedIfCloses(tokens, i + 2)) {
      problems.push(at(t, 4, '"else if" is written "elseif"'));
      replace = merged(T.Elseif, t, u, source);
    } else if (type === T.End && next(t, u) && END_OF.has(u.tokenType)) {
      const word = u.image.toLowerCase();
      problems.push(at(t, 3, `"end ${word}" is written "end${word}"`));
      replace = merged(END_OF.get(u.tokenType)!, t, u, source);
    } else if (type === T.Equals && next(t, u, true) && u.tokenType === T.Equals) {
      problems.push(at(t, 2, '"==" is written "=" (in a condition, "=" compares)'));
      replace = merged(T.Equals, t, u, source);
    } else if (COMPOUND.has(type) && next(t, u, true) && u.tokenType === T.Equals && i > statementStart) {
      // x += 1: spelled out with the statement's own target and value
      const target = text(tokens, statementStart, i, source);
      const value = text(tokens, i + 2, statementEnd(tokens, i + 2), source);
      problems.push(at(t, 2, `"${t.image}=" is not in the language: write "${target} = ${target} ${t.image} ${value || '…'}"`));
    }
    if (replace !== null) {
      out ??= tokens.slice(0, i);
      out.push(replace);
      i++;
    } else if (out !== null) out.push(t);
  }
  return out ?? tokens;
}
