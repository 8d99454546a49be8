// The blocks of the language and what both readers (parser.ts, direct.ts) make of the
// next token, indexed by tokenTypeIdx: one table of openers and closers, and the
// tables derived from it.
import { EOF } from 'chevrotain';
import type { TokenType } from 'chevrotain';
import type { ObjectKind } from './ast.ts';
import * as T from './lexer.ts';

/** A block: the word that opens it, the one that closes it, and the words that may stand between its parts. */
export interface Block {
  opener: TokenType;
  closer: TokenType;
  /** words that end one part of the block and start the next (elseif, else) */
  parts: readonly TokenType[];
  /** what a closer or a part belongs to, as messages name it ("the if", "the set") */
  word: string;
  /** object blocks and handlers stand at top level; the others are statements */
  level: 'object' | 'handler' | 'statement';
}

export const BLOCKS: readonly Block[] = [
  { opener: T.SetKw, closer: T.Endset, parts: [], word: 'set', level: 'object' },
  { opener: T.Actor, closer: T.Endactor, parts: [], word: 'actor', level: 'object' },
  { opener: T.Prop, closer: T.Endprop, parts: [], word: 'prop', level: 'object' },
  { opener: T.Flat, closer: T.Endflat, parts: [], word: 'flat', level: 'object' },
  { opener: T.On, closer: T.End, parts: [], word: 'on', level: 'handler' },
  { opener: T.If, closer: T.Endif, parts: [T.Elseif, T.Else], word: 'if', level: 'statement' },
  { opener: T.While, closer: T.Endwhile, parts: [], word: 'while', level: 'statement' },
  { opener: T.For, closer: T.Endfor, parts: [], word: 'for', level: 'statement' },
];

/** The largest tokenTypeIdx of the grammar's tokens (and of EOF). */
export const maxIdx = Math.max(EOF.tokenTypeIdx!, ...T.allTokens.map((t) => t.tokenTypeIdx!));

const idx = (t: TokenType): number => t.tokenTypeIdx!;

/** The block each opener, closer or part belongs to. */
export const blockOf: (Block | undefined)[] = new Array(maxIdx + 1);
for (const b of BLOCKS) for (const t of [b.opener, b.closer, ...b.parts]) blockOf[idx(t)] = b;

/** The closing keyword of the block each opener starts (tokenTypeIdx to tokenTypeIdx). */
export const closerOf = new Uint16Array(maxIdx + 1);
/** 1 for the keywords that open an object block, and for those that close one. */
export const opensObject = new Uint8Array(maxIdx + 1);
export const closesObject = new Uint8Array(maxIdx + 1);
for (const b of BLOCKS) {
  closerOf[idx(b.opener)] = idx(b.closer);
  if (b.level === 'object') {
    opensObject[idx(b.opener)] = 1;
    closesObject[idx(b.closer)] = 1;
  }
}

/** The object kind an opening keyword starts. */
export function objectKind(opener: TokenType): ObjectKind {
  const b = blockOf[idx(opener)];
  return (b?.level === 'object' ? b.word : 'set') as ObjectKind;
}

/**
 * Which count of open blocks owns each closer or part: one count for each statement
 * block and handlers, one for all object blocks (any object closer ends an object, and
 * a wrong one is reported there). 0 for other tokens.
 */
export const OWNERS = BLOCKS.filter((b) => b.level !== 'object').length + 2;
export const ownerOf = new Uint8Array(maxIdx + 1);
{
  let n = 1;
  for (const b of BLOCKS) {
    const owner = b.level === 'object' ? 1 : ++n;
    for (const t of [b.opener, b.closer, ...b.parts]) ownerOf[idx(t)] = owner;
  }
  // the categories the grammar matches object blocks by
  ownerOf[idx(T.ObjectOpener)] = ownerOf[idx(T.ObjectCloser)] = 1;
}

// ---- how the block loops treat the next token

export const PLAIN = 0;
/** ends a block if an enclosing construct owns it, else is stray */
export const CLOSER = 1;
/** always ends statement blocks (top-level keywords, end of file) */
export const ENDER = 2;

export const tokenRole = new Uint8Array(maxIdx + 1);
for (const b of BLOCKS) {
  for (const t of [b.closer, ...b.parts]) tokenRole[idx(t)] = CLOSER;
  if (b.level !== 'statement') tokenRole[idx(b.opener)] = ENDER;
}
tokenRole[idx(EOF)] = ENDER;

// ---- nesting

/**
 * The most levels of blocks and brackets together, and of `not` and `-` in a row, that
 * a script may have. Both readers and the compiler recurse once or more per level; a
 * few hundred levels would exhaust the stack. No real script comes near this limit.
 */
export const MAX_NESTING = 200;

export const OPENS_BRACKET = 1;
export const CLOSES_BRACKET = 2;
export const OPENS_BLOCK = 3;
export const CLOSES_BLOCK = 4;
export const SEPARATES = 5;
export const PREFIXES = 6;
/** What each token does to the nesting count (0: nothing). */
export const nestingRole = new Uint8Array(maxIdx + 1);
for (const t of [T.LParen, T.LBracket]) nestingRole[idx(t)] = OPENS_BRACKET;
for (const t of [T.RParen, T.RBracket]) nestingRole[idx(t)] = CLOSES_BRACKET;
for (const b of BLOCKS) {
  nestingRole[idx(b.opener)] = OPENS_BLOCK;
  nestingRole[idx(b.closer)] = CLOSES_BLOCK;
}
for (const t of [T.Newline, T.Semicolon]) nestingRole[idx(t)] = SEPARATES;
for (const t of [T.Not, T.Minus]) nestingRole[idx(t)] = PREFIXES;
