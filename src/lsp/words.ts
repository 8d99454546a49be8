// The keywords of the language, read from the lexer's token definitions: a keyword is
// a token whose pattern is its word, in any case (see keyword() in grammar/lexer.ts).
import type { TokenType } from 'chevrotain';
import { allTokens } from '../../grammar/lexer.ts';

function isKeywordToken(t: TokenType): boolean {
  const p = t.PATTERN;
  return p instanceof RegExp && p.flags.includes('i') && /^[a-z]+$/.test(p.source);
}

/** Every keyword token, in the lexer's order. */
export const KEYWORD_TOKENS: readonly TokenType[] = allTokens.filter(isKeywordToken);

/** Every keyword, lower case. */
export const KEYWORDS: readonly string[] = KEYWORD_TOKENS.map((t) => (t.PATTERN as RegExp).source);
