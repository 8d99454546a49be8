// Wording of syntax errors. Authors see these, so they name keywords as typed and
// never mention token or rule names.
import { EOF } from 'chevrotain';
import type { IParserErrorMessageProvider, IToken, TokenType } from 'chevrotain';
import * as T from './lexer.ts';
import { blockOf } from './roles.ts';

/** A problem before it becomes a SyntaxProblem; `offset` orders and deduplicates. */
export interface Problem {
  offset: number;
  line: number;
  col: number;
  length: number;
  message: string;
  /** a block left open at the end of the input: the REPL waits for more lines */
  unclosedAtEnd?: boolean;
}

export function describeToken(t: IToken): string {
  if (t.tokenType === EOF) return 'the end of the file';
  if (t.tokenType === T.Newline) return 'the end of the line';
  return `"${t.image}"`;
}

function label(type: TokenType): string {
  return type.LABEL ?? type.name;
}

function word(t: IToken): string {
  return t.image.toLowerCase();
}

export function strayCloserMessage(t: IToken): string {
  return `"${word(t)}" without a matching "${blockOf[t.tokenTypeIdx]?.word ?? '?'}"`;
}

export function junkMessage(t: IToken): string {
  switch (t.tokenType) {
    case T.RParen:
      return '")" without a matching "("';
    case T.RBracket:
      return '"]" without a matching "["';
    case T.Comma:
      return 'unexpected "," (commas separate arguments, list items and names)';
    case T.Then:
      return '"then" without a matching "if"';
    case T.To:
    case T.Step:
      return `"${word(t)}" only belongs in a for loop, as in: for i = 1 to 10 step 2`;
    case T.Noloopcheck:
      return '"noloopcheck" can only come right after "on"';
    default:
      return `expected an expression before ${describeToken(t)}`;
  }
}

/** Messages for the mistakes chevrotain detects itself, keyed by rule and expected token. */
export const parserMessages: IParserErrorMessageProvider = {
  buildMismatchTokenMessage({ expected, actual, previous, ruleName }) {
    const after = previous ? ` after ${describeToken(previous)}` : '';
    switch (ruleName) {
      case 'ifStmt':
        if (expected === T.Then) return 'expected "then" after the if condition';
        break;
      case 'elseifClause':
        if (expected === T.Then) return 'expected "then" after the elseif condition';
        break;
      case 'forStmt':
        if (expected === T.Identifier) return 'expected a loop variable name after "for"';
        if (expected === T.Equals) return 'expected "=" after the loop variable, as in: for i = 1 to 10';
        if (expected === T.To) return 'expected "to" after the start value of the for loop';
        break;
      case 'handler':
        if (expected === T.Identifier) return `expected a handler name${after}`;
        break;
      case 'params':
        if (expected === T.Identifier) return `expected a parameter name${after}`;
        if (expected === T.RParen) return 'expected "," or ")" in the parameter list';
        break;
      case 'objectBlock':
        if (expected === T.Identifier) return `expected a name${after}`;
        break;
      case 'propertyDecl':
        if (expected === T.Identifier) return 'expected a property name after "property"';
        break;
      case 'globalDecl':
        if (expected === T.Identifier) return `expected a variable name${after}`;
        break;
      case 'callArgs':
        if (expected === T.RParen) {
          return previous?.tokenType === T.LParen ? 'expected an argument or ")" after "("' : 'expected "," or ")" after the argument';
        }
        break;
      case 'parenExpr':
        if (expected === T.RParen) return 'expected ")" to close the "("';
        break;
      case 'listLit':
        if (expected === T.RBracket) {
          return previous?.tokenType === T.LBracket ? 'expected a list item or "]" after "["' : 'expected "," or "]" after the list item';
        }
        break;
      case 'indexSuffix':
        if (expected === T.RBracket) return 'expected "]" after the index';
        break;
    }
    return `expected ${label(expected)}${after}, found ${describeToken(actual)}`;
  },

  buildNotAllInputParsedMessage({ firstRedundant }) {
    return `unexpected ${describeToken(firstRedundant)}`;
  },

  buildNoViableAltMessage({ actual, previous, ruleName }) {
    const found = actual[0];
    if (ruleName === 'expression') {
      if (!previous || previous.tokenType === EOF || previous.tokenType === T.Newline) {
        return 'expected an expression';
      }
      const p = previous.tokenType;
      if (p === T.If || p === T.Elseif || p === T.While) {
        return `expected a condition after "${word(previous)}"`;
      }
      return `expected an expression after ${describeToken(previous)}`;
    }
    return found ? `unexpected ${describeToken(found)}` : 'unexpected input';
  },

  buildEarlyExitMessage({ actual }) {
    const found = actual[0];
    return found ? `unexpected ${describeToken(found)}` : 'unexpected input';
  },
};
