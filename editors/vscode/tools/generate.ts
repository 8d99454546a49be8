// Generates the editor's TextMate grammar and language configuration from the lexer's
// token definitions (grammar/lexer.ts) and the builtin registry, so keywords, builtins,
// operators and literals are spelled in one place. `npm run build` writes both files;
// a test checks that the committed ones are what this produces.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TokenType } from 'chevrotain';
import * as T from '../../../grammar/lexer.ts';
import { BUILTINS } from '../../../src/builtins/index.ts';
import { KEYWORD_TOKENS } from '../../../src/lsp/words.ts';

const word = (t: TokenType): string => (t.PATTERN as RegExp).source;
const has = (t: TokenType, category: TokenType): boolean => (t.CATEGORIES ?? []).includes(category);
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const either = (words: string[]): string =>
  words
    .slice()
    .sort((a, b) => b.length - a.length || (a < b ? -1 : 1))
    .join('|');
/** One word in either case, for the editor's own (JavaScript) patterns, which have no inline case flag. */
const anyCase = (w: string): string => [...w].map((c) => (/[a-z]/.test(c) ? `[${c}${c.toUpperCase()}]` : escape(c))).join('');

/** The scope of each keyword; a keyword not named here is a control keyword. */
function keywordScope(t: TokenType): string {
  if (has(t, T.ObjectOpener) || has(t, T.ObjectCloser)) return 'storage.type.object.pocketwatch';
  if (t === T.On || t === T.End) return 'keyword.declaration.handler.pocketwatch';
  if (t === T.Property || t === T.Global || t === T.Noloopcheck) return 'storage.modifier.pocketwatch';
  if (t === T.True || t === T.False) return 'constant.language.boolean.pocketwatch';
  if (t === T.Void) return 'constant.language.void.pocketwatch';
  if (t === T.Self) return 'variable.language.self.pocketwatch';
  if (has(t, T.BinOp) || t === T.Not) return 'keyword.operator.word.pocketwatch';
  return 'keyword.control.pocketwatch';
}

/** Escapes a string may hold: the lexer reports any other backslash pair. */
export const STRING_ESCAPES = ['\\"', '\\\\', '\\n', '\\t'];

export function textmateGrammar(): object {
  const name = (T.Identifier.PATTERN as RegExp).source;
  const byScope = new Map<string, string[]>();
  for (const t of KEYWORD_TOKENS) {
    const s = keywordScope(t);
    byScope.set(s, [...(byScope.get(s) ?? []), word(t)]);
  }
  const keywords = [...byScope].map(([scope, words]) => ({ name: scope, match: `(?i)\\b(?:${either(words)})\\b` }));
  const operators = T.allTokens.filter((t) => has(t, T.BinOp) && typeof t.PATTERN === 'string').map((t) => escape(t.PATTERN as string));
  const openers = KEYWORD_TOKENS.filter((t) => has(t, T.ObjectOpener)).map(word);
  return {
    $schema: 'https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json',
    name: 'Pocketwatch',
    scopeName: 'source.pocketwatch',
    fileTypes: ['pw'],
    patterns: ['comment', 'object', 'handler', 'property', 'string', 'number', 'builtin-call', 'call', 'keywords', 'operator', 'punctuation'].map((r) => ({ include: `#${r}` })),
    repository: {
      comment: { name: 'comment.line.double-dash.pocketwatch', match: (T.Comment.PATTERN as RegExp).source },
      object: {
        match: `(?i)^\\s*(${either(openers)})\\s+(${name})`,
        captures: { 1: { name: 'storage.type.object.pocketwatch' }, 2: { name: 'entity.name.type.object.pocketwatch' } },
      },
      handler: {
        match: `(?i)\\b(${word(T.On)})\\s+(?:(${word(T.Noloopcheck)})\\s+)?(${name})`,
        captures: { 1: { name: 'keyword.declaration.handler.pocketwatch' }, 2: { name: 'storage.modifier.pocketwatch' }, 3: { name: 'entity.name.function.pocketwatch' } },
      },
      property: {
        match: `(?i)\\b(${word(T.Property)})\\s+(${name})`,
        captures: { 1: { name: 'storage.modifier.pocketwatch' }, 2: { name: 'variable.other.property.pocketwatch' } },
      },
      string: {
        patterns: [
          {
            name: 'string.quoted.double.pocketwatch',
            begin: '"',
            end: '"|$',
            patterns: [
              { name: 'constant.character.escape.pocketwatch', match: either(STRING_ESCAPES.map(escape)) },
              { name: 'invalid.illegal.escape.pocketwatch', match: '\\\\.' },
            ],
          },
          { name: 'invalid.illegal.string.single-quoted.pocketwatch', match: (T.SingleQuotedString.PATTERN as RegExp).source },
        ],
      },
      number: { name: 'constant.numeric.pocketwatch', match: `(?<![A-Za-z_0-9.])${(T.NumberLit.PATTERN as RegExp).source}` },
      'builtin-call': {
        match: `(?i)\\b(${either(BUILTINS.map((b) => b.name))})\\b(?=\\s*\\()`,
        captures: { 1: { name: 'support.function.builtin.pocketwatch' } },
      },
      call: { match: `\\b(${name})(?=\\s*\\()`, captures: { 1: { name: 'entity.name.function.call.pocketwatch' } } },
      keywords: { patterns: keywords },
      operator: { name: 'keyword.operator.pocketwatch', match: either(operators) },
      punctuation: {
        patterns: [
          { name: 'punctuation.separator.comma.pocketwatch', match: escape(T.Comma.PATTERN as string) },
          { name: 'punctuation.terminator.statement.pocketwatch', match: escape(T.Semicolon.PATTERN as string) },
          { name: 'punctuation.bracket.pocketwatch', match: [T.LParen, T.RParen, T.LBracket, T.RBracket].map((t) => escape(t.PATTERN as string)).join('|') },
        ],
      },
    },
  };
}

export function languageConfiguration(): object {
  const words = (ts: TokenType[]): string => ts.map((t) => anyCase(word(t))).join('|');
  const objectOpeners = KEYWORD_TOKENS.filter((t) => has(t, T.ObjectOpener));
  const openers = words([T.On, ...objectOpeners, T.If, T.While, T.For]);
  const middles = words([T.Else, T.Elseif]);
  const closers = words(KEYWORD_TOKENS.filter((t) => has(t, T.Closer) && t !== T.Else && t !== T.Elseif));
  // a block opened and closed on one line (`if x then y endif`) opens nothing
  const notClosedHere = `(?!.*\\b(?:${closers})\\b)`;
  const [open, close] = [T.LParen, T.RParen, T.LBracket, T.RBracket].map((t) => t.PATTERN as string).reduce<[string[], string[]]>((acc, p, i) => (acc[i % 2].push(p), acc), [[], []]);
  return {
    comments: { lineComment: '--' },
    brackets: open.map((o, i) => [o, close[i]]),
    autoClosingPairs: [...open.map((o, i) => ({ open: o, close: close[i] })), { open: '"', close: '"', notIn: ['string', 'comment'] }],
    surroundingPairs: [...open.map((o, i) => [o, close[i]]), ['"', '"']],
    wordPattern: (T.Identifier.PATTERN as RegExp).source,
    folding: { markers: { start: `^\\s*(?:${openers})\\b${notClosedHere}`, end: `^\\s*(?:${closers})\\b` } },
    indentationRules: {
      increaseIndentPattern: `^\\s*(?:(?:${openers})\\b${notClosedHere}|(?:${middles})\\b)`,
      decreaseIndentPattern: `^\\s*(?:${closers}|${middles})\\b`,
    },
  };
}

const json = (o: object): string => JSON.stringify(o, null, 2) + '\n';

/** The generated files, by path relative to the extension's folder. */
export function generatedFiles(): Record<string, string> {
  return {
    'syntaxes/pocketwatch.tmLanguage.json': json(textmateGrammar()),
    'language-configuration.json': json(languageConfiguration()),
  };
}

export function writeGenerated(extensionDir: string): void {
  for (const [path, text] of Object.entries(generatedFiles())) writeFileSync(join(extensionDir, path), text);
}
