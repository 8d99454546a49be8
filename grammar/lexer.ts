// Tokens of the scripting language and the lexer built from them.
// Keywords and names are case-insensitive; newlines are significant (they end statements).
import { createToken, Lexer } from 'chevrotain';
import type { ILexerErrorMessageProvider, IToken, TokenType } from 'chevrotain';

// Categories: they carry no pattern; the parser matches any member through them.
export const Sep = createToken({ name: 'Sep', pattern: Lexer.NA, label: 'the end of the line' });
export const BinOp = createToken({ name: 'BinOp', pattern: Lexer.NA, label: 'an operator' });
export const Closer = createToken({ name: 'Closer', pattern: Lexer.NA, label: 'a closing keyword' });
export const ObjectOpener = createToken({ name: 'ObjectOpener', pattern: Lexer.NA, label: '"set", "actor", "prop" or "flat"' });
export const ObjectCloser = createToken({ name: 'ObjectCloser', pattern: Lexer.NA, label: '"endset", "endactor", "endprop" or "endflat"' });
// Tokens that can never start a statement; a block swallows them with an error.
export const Junk = createToken({ name: 'Junk', pattern: Lexer.NA, label: 'an unexpected word' });

export const Identifier = createToken({
  name: 'Identifier',
  pattern: /[a-zA-Z_][a-zA-Z0-9_]*/,
  label: 'a name',
});

/** Keyword token types by their lower-case spelling. */
const keywordsByWord = new Map<string, TokenType>();

// A keyword is a whole name spelled like it, in any case. The pattern says so (and
// shows in the grammar diagrams), but the lexer is not given keywords: it matches a
// name and lex() turns the ones spelled like a keyword into that keyword. That is one
// pattern per word instead of every keyword that could start there, then the name.
function keyword(word: string, categories: TokenType[] = []): TokenType {
  const type = createToken({
    name: word[0]!.toUpperCase() + word.slice(1),
    pattern: new RegExp(word, 'i'),
    label: `"${word}"`,
    categories,
  });
  keywordsByWord.set(word, type);
  return type;
}

// One token for a line break together with any blank or comment-only lines and the
// indentation after it: the parser sees one separator instead of several, which
// matters for speed. Errors reported "at the end of the line" point at its start.
export const Newline = createToken({
  name: 'Newline',
  pattern: /(?:\r\n?|\n)(?:[ \t\f\v]*(?:--[^\r\n]*)?(?:\r\n?|\n))*[ \t]*/,
  line_breaks: true,
  categories: [Sep],
  label: 'the end of the line',
});
export const Semicolon = createToken({ name: 'Semicolon', pattern: ';', categories: [Sep], label: '";"' });
// Most spaces stand alone between two tokens. A one-character pattern is a plain
// character comparison in the lexer, where WhiteSpace needs a regular expression.
export const Space = createToken({ name: 'Space', pattern: ' ', group: Lexer.SKIPPED });
export const WhiteSpace = createToken({ name: 'WhiteSpace', pattern: /[ \t\f\v\uFEFF\u00A0]+/, group: Lexer.SKIPPED });
// Must come before Minus: `--` starts a comment, not two minuses.
export const Comment = createToken({ name: 'Comment', pattern: /--[^\r\n]*/, group: Lexer.SKIPPED });

export const NumberLit = createToken({
  name: 'NumberLit',
  pattern: /\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/,
  label: 'a number',
});
// Any backslash pair is accepted here; unknown escapes are reported after lexing,
// with the exact column, instead of turning the whole string into an error.
export const StringLit = createToken({
  name: 'StringLit',
  pattern: /"(?:[^"\\\r\n]|\\[^\r\n])*"/,
  label: 'a string',
});
// A string cut off by the end of the line. It counts as a string for the parser so one
// missing quote yields one error.
export const UnterminatedString = createToken({
  name: 'UnterminatedString',
  pattern: /"(?:[^"\\\r\n]|\\[^\r\n])*\\?/,
  categories: [StringLit],
  label: 'a string',
});

// 'like this': reported as an error, but read as a string so the line parses on.
export const SingleQuotedString = createToken({
  name: 'SingleQuotedString',
  pattern: /'[^'\r\n]*'?/,
  categories: [StringLit],
  label: 'a string',
});

// Keywords: a whole name spelled like one of these, in any case (see keyword()).
export const SetKw = keyword('set', [ObjectOpener]);
export const Actor = keyword('actor', [ObjectOpener]);
export const Flat = keyword('flat', [ObjectOpener]);
export const Endset = keyword('endset', [Closer, ObjectCloser]);
export const Endactor = keyword('endactor', [Closer, ObjectCloser]);
export const Endprop = keyword('endprop', [Closer, ObjectCloser]);
export const Endflat = keyword('endflat', [Closer, ObjectCloser]);
export const Property = keyword('property');
export const Prop = keyword('prop', [ObjectOpener]);
export const On = keyword('on');
export const Noloopcheck = keyword('noloopcheck', [Junk]);
export const Global = keyword('global');
export const If = keyword('if');
export const Then = keyword('then', [Junk]);
export const Elseif = keyword('elseif', [Closer]);
export const Else = keyword('else', [Closer]);
export const Endif = keyword('endif', [Closer]);
export const While = keyword('while');
export const Endwhile = keyword('endwhile', [Closer]);
export const For = keyword('for');
export const To = keyword('to', [Junk]);
export const Step = keyword('step', [Junk]);
export const Endfor = keyword('endfor', [Closer]);
export const Break = keyword('break');
export const Continue = keyword('continue');
export const Return = keyword('return');
export const End = keyword('end', [Closer]);
export const And = keyword('and', [BinOp, Junk]);
export const Or = keyword('or', [BinOp, Junk]);
export const Not = keyword('not');
export const Mod = keyword('mod', [BinOp, Junk]);
export const True = keyword('true');
export const False = keyword('false');
export const Void = keyword('void');
export const Self = keyword('self');

// Punctuation and operators; two-character operators before their one-character prefixes.
export const LParen = createToken({ name: 'LParen', pattern: '(', label: '"("' });
export const RParen = createToken({ name: 'RParen', pattern: ')', label: '")"', categories: [Junk] });
export const LBracket = createToken({ name: 'LBracket', pattern: '[', label: '"["' });
export const RBracket = createToken({ name: 'RBracket', pattern: ']', label: '"]"', categories: [Junk] });
export const Comma = createToken({ name: 'Comma', pattern: ',', label: '","', categories: [Junk] });
export const NotEqual = createToken({ name: 'NotEqual', pattern: '<>', label: '"<>"', categories: [BinOp, Junk] });
export const LessEq = createToken({ name: 'LessEq', pattern: '<=', label: '"<="', categories: [BinOp, Junk] });
export const Less = createToken({ name: 'Less', pattern: '<', label: '"<"', categories: [BinOp, Junk] });
export const GreaterEq = createToken({ name: 'GreaterEq', pattern: '>=', label: '">="', categories: [BinOp, Junk] });
export const Greater = createToken({ name: 'Greater', pattern: '>', label: '">"', categories: [BinOp, Junk] });
export const Equals = createToken({ name: 'Equals', pattern: '=', label: '"="', categories: [BinOp, Junk] });
export const Concat = createToken({ name: 'Concat', pattern: '..', label: '".."', categories: [BinOp, Junk] });
export const Plus = createToken({ name: 'Plus', pattern: '+', label: '"+"', categories: [BinOp, Junk] });
// Minus can start an expression (negation), so it is not Junk.
export const Minus = createToken({ name: 'Minus', pattern: '-', label: '"-"', categories: [BinOp] });
export const Star = createToken({ name: 'Star', pattern: '*', label: '"*"', categories: [BinOp, Junk] });
export const Slash = createToken({ name: 'Slash', pattern: '/', label: '"/"', categories: [BinOp, Junk] });
export const Amp = createToken({ name: 'Amp', pattern: '&', label: '"&"', categories: [BinOp, Junk] });
export const Pipe = createToken({ name: 'Pipe', pattern: '|', label: '"|"', categories: [BinOp, Junk] });

/** Every keyword, as keyword() recorded it. */
const keywordTokens: TokenType[] = [...keywordsByWord.values()];

/** The token types the lexer matches, in the order it tries them. */
export const lexedTokens: readonly TokenType[] = [
  Space,
  WhiteSpace,
  Newline,
  Semicolon,
  Comment,
  NumberLit,
  StringLit,
  UnterminatedString,
  SingleQuotedString,
  Identifier,
  LParen,
  RParen,
  LBracket,
  RBracket,
  Comma,
  NotEqual,
  LessEq,
  Less,
  GreaterEq,
  Greater,
  Equals,
  Concat,
  Plus,
  Minus,
  Star,
  Slash,
  Amp,
  Pipe,
];

/** Every token type: the lexed ones, keywords (see keyword()), then categories. */
export const allTokens: TokenType[] = [...lexedTokens, ...keywordTokens, Sep, BinOp, Closer, ObjectOpener, ObjectCloser, Junk];

/** A lexing problem, before it is turned into a SyntaxProblem. */
export interface LexProblem {
  offset: number;
  line: number;
  col: number;
  length: number;
  message: string;
}

const lexerMessages: ILexerErrorMessageProvider = {
  buildUnexpectedCharactersMessage(fullText, startOffset, length) {
    const chars = fullText.substr(startOffset, length);
    const first = chars[0];
    if (first === '.' && length === 1) return 'unexpected "." (to join strings, use "..")';
    if (first === '!' && fullText[startOffset + 1] === '=') return 'unexpected "!" (for "not equal", write "<>")';
    return length === 1 ? `unexpected character "${chars}"` : `unexpected characters "${chars}"`;
  },
  buildUnableToPopLexerModeMessage() {
    return 'internal lexer error';
  },
};

function makeLexer(validate: boolean): Lexer {
  return new Lexer(lexedTokens as TokenType[], {
    // Only start positions are used; full tracking costs a third of lexing time.
    positionTracking: 'onlyStart',
    ensureOptimizations: true,
    // The checks cost start-up time; validateLexer runs them in a test.
    skipValidations: !validate,
    errorMessageProvider: lexerMessages,
  });
}

// Built on first use: a script without mistakes is read by direct.ts and never needs it.
let lexer: Lexer | null = null;

/** Builds a throw-away lexer with chevrotain's token checks on; throws if any fails. */
export function validateLexer(): void {
  makeLexer(true);
}

export interface LexResult {
  tokens: IToken[];
  problems: LexProblem[];
}

const BACKSLASH = 92;
const IDENTIFIER_IDX = Identifier.tokenTypeIdx!;
const UNTERMINATED_IDX = UnterminatedString.tokenTypeIdx!;
const SINGLE_QUOTED_IDX = SingleQuotedString.tokenTypeIdx!;
const STRING_IDX = StringLit.tokenTypeIdx!;
const NUMBER_IDX = NumberLit.tokenTypeIdx!;

const LONGEST_KEYWORD = Math.max(...[...keywordsByWord.keys()].map((w) => w.length));
// By first character (either case): bit n is set when a keyword of length n starts
// with it. Most names fail this test and never need a lookup.
const keywordShapes = new Uint16Array(128);
for (const w of keywordsByWord.keys()) {
  keywordShapes[w.charCodeAt(0)]! |= 1 << w.length;
  keywordShapes[w.toUpperCase().charCodeAt(0)]! |= 1 << w.length;
}

/** The keyword a name is spelled like, in any case, if any. */
export function keywordFor(image: string): TokenType | undefined {
  // a name starts with an ASCII letter or "_"
  if (image.length > LONGEST_KEYWORD || (keywordShapes[image.charCodeAt(0)]! & (1 << image.length)) === 0) {
    return undefined;
  }
  const kw = keywordsByWord.get(image);
  if (kw !== undefined) return kw;
  const lower = image.toLowerCase();
  return lower === image ? undefined : keywordsByWord.get(lower);
}

/** Where each line of a source starts: lines end at "\r\n", "\r" or "\n", as the lexer reads them. */
export function lineStarts(source: string): number[] {
  const starts = [0];
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 10 || (c === 13 && source.charCodeAt(i + 1) !== 10)) starts.push(i + 1);
  }
  return starts;
}

/** Line n (1-based) of a source without its line break, given its lineStarts. */
export function lineAt(source: string, starts: readonly number[], n: number): string {
  if (n < 1 || n > starts.length) return '';
  const end = n < starts.length ? starts[n] : source.length;
  return source.slice(starts[n - 1], end).replace(/\r?\n$|\r$/, '');
}

/**
 * Splits source text into tokens. Never throws: bad characters, unterminated strings
 * and unknown escapes come back as problems. A name spelled like a keyword becomes
 * that keyword, and each string token gets its decoded value in `payload`.
 */
export function lex(source: string): LexResult {
  const result = (lexer ??= makeLexer(false)).tokenize(source);
  const problems: LexProblem[] = [];
  for (const e of result.errors) {
    problems.push({
      offset: e.offset,
      line: e.line ?? 1,
      col: e.column ?? 1,
      length: Math.max(1, e.length),
      message: e.message,
    });
  }
  const tokens = result.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const idx = t.tokenTypeIdx;
    if (idx === IDENTIFIER_IDX) {
      const kw = keywordFor(t.image);
      if (kw !== undefined) {
        t.tokenType = kw;
        t.tokenTypeIdx = kw.tokenTypeIdx!;
      }
    } else if (idx === STRING_IDX) {
      t.payload = decodeString(t, 1, t.image.length - 1, problems);
    } else if (idx === NUMBER_IDX) {
      // past the largest double a literal would silently be Infinity
      if (!Number.isFinite(Number(t.image))) problems.push(tokenProblem(t, `the number ${t.image} is too large (numbers go up to about 1.8e308)`));
    } else if (idx === UNTERMINATED_IDX) {
      problems.push(tokenProblem(t, 'unterminated string: add the closing " before the end of the line'));
      t.payload = decodeString(t, 1, t.image.length, null);
    } else if (idx === SINGLE_QUOTED_IDX) {
      problems.push(tokenProblem(t, 'strings use double quotes: "like this"'));
      t.payload = t.image.slice(1, t.image.endsWith("'") && t.image.length > 1 ? -1 : undefined);
    }
  }
  if (problems.length > 1) problems.sort((a, b) => a.offset - b.offset);
  return { tokens, problems };
}

/** A problem covering a whole token. */
function tokenProblem(t: IToken, message: string): LexProblem {
  return { offset: t.startOffset, line: t.startLine ?? 1, col: t.startColumn ?? 1, length: t.image.length, message };
}

function decodeString(t: IToken, from: number, to: number, problems: LexProblem[] | null): string {
  const unknown =
    problems === null
      ? null
      : (i: number, next: string): void => {
          problems.push({
            offset: t.startOffset + i,
            line: t.startLine ?? 1,
            col: (t.startColumn ?? 1) + i,
            length: 2,
            message: `unknown escape "\\${next}" in a string (use \\" \\\\ \\n or \\t)`,
          });
        };
  return decodeEscapes(t.image, from, to, unknown);
}

/**
 * The characters of `text` from `from` to `to` with string escapes decoded. An unknown
 * escape stands for its second character, and `unknown` hears of it (its index in `text`).
 */
export function decodeEscapes(text: string, from: number, to: number, unknown: ((at: number, next: string) => void) | null): string {
  const slash = text.indexOf('\\', from);
  if (slash < 0 || slash >= to) return text.slice(from, to);
  let out = text.slice(from, slash);
  let i = slash;
  while (i < to) {
    const c = text.charCodeAt(i);
    if (c !== BACKSLASH) {
      out += text[i];
      i++;
      continue;
    }
    const next = text[i + 1];
    if (next === undefined || i + 1 >= to) {
      out += '\\';
      break;
    }
    switch (next) {
      case '"':
        out += '"';
        break;
      case '\\':
        out += '\\';
        break;
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      default:
        out += next;
        unknown?.(i, next);
    }
    i += 2;
  }
  return out;
}
