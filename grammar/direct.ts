// The direct reader: a script without mistakes, read straight from its characters into
// the AST in one pass, with no token objects and no parser machinery. Almost every
// script a game loads is free of mistakes, and reading it this way is several times
// faster and leaves only the AST behind.
//
// The language is defined by the chevrotain grammar (parser.ts) and the token
// definitions (lexer.ts); this reader follows them and builds exactly the AST the
// careful pass builds. It takes its keywords, punctuation, operator categories and the
// patterns of names, spaces, numbers, strings and comments from lexer.ts (the common
// forms of the last three it reads by character classes drawn from those patterns,
// the rest by the patterns themselves), the blocks, their closers and the nesting
// limit from roles.ts, and the precedence reading and statement shapes from
// build-ast.ts. At a mistake it gives up and returns null, and the careful pass reads
// the script: every message comes from there. Tests hold the two to the same AST on
// every script, and the direct reader to accepting every script without mistakes.
import { EOF } from 'chevrotain';
import type { IToken, TokenType } from 'chevrotain';
import type * as A from './ast.ts';
import * as T from './lexer.ts';
import { AstBuilder, GIVE_UP, expressionStatement, readFlat, takeFrom } from './build-ast.ts';
import type { BuiltOperand, FlatTail } from './build-ast.ts';
import { MAX_NESTING, PLAIN, closerOf, maxIdx, objectKind, opensObject, tokenRole } from './roles.ts';

// ---- token kinds: tokenTypeIdx of the token definitions

const idx = (t: TokenType): number => t.tokenTypeIdx!;
const SEP = idx(T.Sep);
const END_OF_FILE = idx(EOF);
const IDENT = idx(T.Identifier);
const NUMBER = idx(T.NumberLit);
const STRING = idx(T.StringLit);
const LPAREN = idx(T.LParen);
const RPAREN = idx(T.RParen);
const LBRACKET = idx(T.LBracket);
const RBRACKET = idx(T.RBracket);
const COMMA = idx(T.Comma);
const EQUALS = idx(T.Equals);
const NOT = idx(T.Not);
const MINUS = idx(T.Minus);
const TRUE = idx(T.True);
const FALSE = idx(T.False);
const VOID = idx(T.Void);
const SELF = idx(T.Self);
const IF = idx(T.If);
const THEN = idx(T.Then);
const ELSEIF = idx(T.Elseif);
const ELSE = idx(T.Else);
const ENDIF = idx(T.Endif);
const WHILE = idx(T.While);
const ENDWHILE = idx(T.Endwhile);
const FOR = idx(T.For);
const TO = idx(T.To);
const STEP = idx(T.Step);
const ENDFOR = idx(T.Endfor);
const BREAK = idx(T.Break);
const CONTINUE = idx(T.Continue);
const RETURN = idx(T.Return);
const GLOBAL = idx(T.Global);
const ON = idx(T.On);
const NOLOOPCHECK = idx(T.Noloopcheck);
const END = idx(T.End);
const PROPERTY = idx(T.Property);

const typeByIdx: TokenType[] = [];
for (const t of T.allTokens) typeByIdx[idx(t)] = t;

function inCategory(t: TokenType, category: TokenType): boolean {
  return (t.CATEGORIES ?? []).includes(category);
}

const isBinOp = new Uint8Array(maxIdx + 1);
for (const t of T.allTokens) if (inCategory(t, T.BinOp)) isBinOp[idx(t)] = 1;
/** tokens an expression can start with */
const startsExpr = new Uint8Array(maxIdx + 1);
for (const k of [NOT, MINUS, NUMBER, STRING, IDENT, TRUE, FALSE, VOID, SELF, LPAREN, LBRACKET]) startsExpr[k] = 1;

// ---- characters, from the token definitions' patterns

/** ASCII characters c for which `test (c)` holds. */
function asciiWhere(test: (c: string) => boolean): Uint8Array {
  const out = new Uint8Array(128);
  for (let c = 0; c < 128; c++) out[c] = test(String.fromCharCode(c)) ? 1 : 0;
  return out;
}

/** ASCII characters c for which `prefix + c + suffix` is a whole match of the pattern. */
function asciiMatching(pattern: RegExp, prefix = '', suffix = ''): Uint8Array {
  const whole = new RegExp(`^(?:${pattern.source})$`, pattern.flags.replace(/[gy]/g, ''));
  return asciiWhere((c) => whole.test(prefix + c + suffix));
}

const sticky = (t: TokenType): RegExp => new RegExp((t.PATTERN as RegExp).source, 'y');
const nameStart = asciiMatching(T.Identifier.PATTERN as RegExp);
const namePart = asciiMatching(T.Identifier.PATTERN as RegExp, 'a');
const spaceAscii = asciiMatching(T.WhiteSpace.PATTERN as RegExp);
const spaceOther = new RegExp(`^(?:${(T.WhiteSpace.PATTERN as RegExp).source})$`);
const commentRe = sticky(T.Comment);
const numberRe = sticky(T.NumberLit);
const stringRe = sticky(T.StringLit);
const numberStart = asciiMatching(/\d/);
const lineBreak = asciiMatching(/\r|\n/);
const COMMENT_START = (T.Comment.PATTERN as RegExp).source.startsWith('--') ? 45 : -1;
const QUOTE = 34;
const BACKSLASH = 92;
// The common forms, read without running the patterns: a comment of ASCII characters;
// a string of ASCII characters that need no escape; a run of digits followed by
// nothing that could take the number on (a dot or an exponent).
const commentPart = asciiMatching(T.Comment.PATTERN as RegExp, '--');
const stringPart = asciiMatching(T.StringLit.PATTERN as RegExp, '"', '"');
const numberGoesOn = asciiWhere((c) => {
  numberRe.lastIndex = 0;
  return numberRe.test(`1${c}1`) && numberRe.lastIndex > 1;
});

/** Punctuation by first character: its spellings and kinds, in the lexer's order. */
const punctuation: { kind: number; length: number; second: number }[][] = [];
/** The one spelling of each punctuation kind. */
const spellingOf: string[] = [];
for (const t of T.lexedTokens) {
  if (typeof t.PATTERN !== 'string' || t.GROUP !== undefined) continue;
  const kind = inCategory(t, T.Sep) ? SEP : idx(t);
  const text = t.PATTERN;
  if (text.length > 2) throw new Error(`internal: the direct reader reads punctuation of one or two characters, not "${text}"`);
  (punctuation[text.charCodeAt(0)] ??= []).push({ kind, length: text.length, second: text.length === 2 ? text.charCodeAt(1) : -1 });
  spellingOf[kind] = text;
}

/** A name as the AST holds it; one per spelling in a file. */
interface Name {
  spelled: string;
  name: string;
}

/** A word as spelled in the source: a keyword, or a name (then `name` is set). */
interface Word {
  text: string;
  kind: number;
  name: Name | null;
}

/** Every spelling of a word met in a file, open addressing on Reader.word's hash. */
interface WordTable {
  words: (Word | undefined)[];
  count: number;
}

class Reader {
  // the scanner: the next character, and where its line starts
  private i = 0;
  private line = 1;
  private lineStart = 0;
  // the current token (one token of lookahead is all the grammar needs)
  private kind = 0;
  private start = 0;
  private end = 0;
  private tline = 1;
  private tcol = 1;
  private name: Name | null = null;
  private value: string | number = 0;
  private table: WordTable;

  private depth = 0;
  /** prefix operators in a row, as the nesting guard counts them */
  private run = 0;
  // what the operand just read leaves for the expression around it
  private prefixes: IToken[] | null = null;
  private plainName = false;
  private atomPos: A.Pos | null = null;
  // shared stacks; each list is copied out at its exact length (AST arrays live long)
  private readonly stmts: A.Stmt[] = [];
  private readonly args: A.Expr[] = [];
  private readonly b: AstBuilder;

  /**
   * @param lazy handlers read their bodies again when asked for them (see LazyHandler)
   * @param at where to start: a handler body being read again
   * @param sink told of each item as soon as it is read (see ReadSink)
   */
  constructor(
    private readonly src: string,
    private readonly repl: boolean,
    private readonly lazy = false,
    at: BodyStart | null = null,
    private readonly sink: ReadSink | null = null,
  ) {
    this.b = new AstBuilder({ file: '', problems: [], endPos: { line: 1, col: 1 }, endOffset: 0 }, repl, true);
    if (at !== null) {
      this.i = at.offset;
      this.line = at.line;
      this.lineStart = at.lineStart;
      this.depth = at.depth;
      this.table = at.table;
    } else {
      // room for the words of a file this long (about one new word in sixty characters)
      let size = 256;
      while (size * 32 < src.length) size *= 2;
      this.table = { words: new Array(size), count: 0 };
    }
    this.next();
  }

  // ---- scanning

  private next(): void {
    const src = this.src;
    const n = src.length;
    let i = this.i;
    for (;;) {
      if (i >= n) {
        this.token(END_OF_FILE, n, n);
        return;
      }
      const c = src.charCodeAt(i);
      if (c < 128) {
        if (spaceAscii[c] === 1) {
          i++;
          continue;
        }
        if (nameStart[c] === 1) {
          let j = i + 1;
          let h = c;
          while (j < n) {
            const d = src.charCodeAt(j);
            if (d >= 128 || namePart[d] === 0) break;
            h = (Math.imul(h, 31) + d) | 0;
            j++;
          }
          this.word(i, j, h);
          return;
        }
        if (lineBreak[c] === 1) {
          // One line break a separator: the lexer's Newline also takes in the blank and
          // comment-only lines after it, but the grammar reads a run of separators as one.
          const j = c === 13 && src.charCodeAt(i + 1) === 10 ? i + 2 : i + 1;
          this.token(SEP, i, j);
          this.line++;
          this.lineStart = j;
          return;
        }
        if (c === COMMENT_START && src.charCodeAt(i + 1) === COMMENT_START) {
          let j = i + 2;
          let d = 0;
          while (j < n && (d = src.charCodeAt(j)) < 128 && commentPart[d] === 1) j++;
          if (j < n && d >= 128) {
            commentRe.lastIndex = i;
            if (!commentRe.test(src)) throw GIVE_UP;
            j = commentRe.lastIndex;
          }
          i = j;
          continue;
        }
        if (numberStart[c] === 1) {
          let j = i + 1;
          let d = 0;
          while (j < n && (d = src.charCodeAt(j)) < 128 && numberStart[d] === 1) j++;
          if (j < n && (d >= 128 || numberGoesOn[d] === 1)) {
            numberRe.lastIndex = i;
            if (!numberRe.test(src)) throw GIVE_UP;
            j = numberRe.lastIndex;
          }
          this.token(NUMBER, i, j);
          this.value = this.numberValue(i, j);
          return;
        }
        if (c === QUOTE) {
          let j = i + 1;
          let d = 0;
          while (j < n && (d = src.charCodeAt(j)) < 128 && stringPart[d] === 1) j++;
          if (j < n && d === QUOTE) {
            this.token(STRING, i, j + 1);
            this.value = src.slice(i + 1, j);
            return;
          }
          stringRe.lastIndex = i;
          if (!stringRe.test(src)) throw GIVE_UP;
          j = stringRe.lastIndex;
          this.token(STRING, i, j);
          this.value = this.stringValue(i + 1, j - 1);
          return;
        }
        const spellings = punctuation[c];
        if (spellings !== undefined) {
          for (let k = 0; k < spellings.length; k++) {
            const p = spellings[k]!;
            if (p.second < 0 || src.charCodeAt(i + 1) === p.second) {
              this.token(p.kind, i, i + p.length);
              return;
            }
          }
        }
        throw GIVE_UP;
      }
      if (spaceOther.test(src[i]!)) {
        i++;
        continue;
      }
      throw GIVE_UP;
    }
  }

  private token(kind: number, start: number, end: number): void {
    this.kind = kind;
    this.start = start;
    this.end = end;
    this.i = end;
    this.tline = this.line;
    this.tcol = start - this.lineStart + 1;
  }

  /** A keyword or name, found by `hash` of its characters among the words seen before. */
  private word(start: number, end: number, hash: number): void {
    const words = this.table.words;
    const mask = words.length - 1;
    const length = end - start;
    let k = hash & mask;
    let w = words[k];
    while (w !== undefined && !this.spells(w.text, start, length)) {
      k = (k + 1) & mask;
      w = words[k];
    }
    if (w === undefined) w = this.newWord(start, end, k);
    this.token(w.kind, start, end);
    this.name = w.name;
  }

  /** Whether the `length` characters at `start` spell `text`. */
  private spells(text: string, start: number, length: number): boolean {
    if (text.length !== length) return false;
    const src = this.src;
    for (let i = 0; i < length; i++) if (text.charCodeAt(i) !== src.charCodeAt(start + i)) return false;
    return true;
  }

  private newWord(start: number, end: number, at: number): Word {
    const text = this.src.slice(start, end);
    const kw = T.keywordFor(text);
    const w: Word = kw !== undefined ? { text, kind: idx(kw), name: null } : { text, kind: IDENT, name: { spelled: text, name: text.toLowerCase() } };
    const table = this.table;
    table.words[at] = w;
    if (++table.count * 2 > table.words.length) this.rehash();
    return w;
  }

  private rehash(): void {
    const old = this.table.words;
    const words: (Word | undefined)[] = new Array(old.length * 2);
    const mask = words.length - 1;
    for (const w of old) {
      if (w === undefined) continue;
      let h = w.text.charCodeAt(0);
      for (let i = 1; i < w.text.length; i++) h = (Math.imul(h, 31) + w.text.charCodeAt(i)) | 0;
      let k = h & mask;
      while (words[k] !== undefined) k = (k + 1) & mask;
      words[k] = w;
    }
    this.table.words = words;
  }

  /** The value of the number literal from `from` to `to`, as Number () reads it. */
  private numberValue(from: number, to: number): number {
    // a few digits alone (most literals) are summed up exactly, without a string
    if (to - from <= 9) {
      let v = 0;
      for (let k = from; k < to; k++) {
        const d = this.src.charCodeAt(k) - 48;
        if (d < 0 || d > 9) return this.parsedNumber(from, to);
        v = v * 10 + d;
      }
      return v;
    }
    return this.parsedNumber(from, to);
  }

  private parsedNumber(from: number, to: number): number {
    const v = Number(this.src.slice(from, to));
    if (!Number.isFinite(v)) throw GIVE_UP;
    return v;
  }

  private stringValue(from: number, to: number): string {
    const src = this.src;
    for (let k = from; k < to; k++) {
      if (src.charCodeAt(k) === BACKSLASH) return T.decodeEscapes(src, from, to, giveUp);
    }
    return src.slice(from, to);
  }

  private pos(): A.Pos {
    return { line: this.tline, col: this.tcol };
  }

  /** The current token as the precedence reading takes operators. */
  private opToken(): IToken {
    const type = typeByIdx[this.kind]!;
    return {
      image: spellingOf[this.kind] ?? this.src.slice(this.start, this.end),
      startOffset: this.start,
      startLine: this.tline,
      startColumn: this.tcol,
      tokenTypeIdx: this.kind,
      tokenType: type,
    };
  }

  private expect(kind: number): void {
    if (this.kind !== kind) throw GIVE_UP;
    this.next();
  }

  private ident(): Name {
    if (this.kind !== IDENT) throw GIVE_UP;
    return this.name!;
  }

  private param(): A.Param {
    const id = this.ident();
    const p: A.Param = { name: id.name, spelled: id.spelled, pos: this.pos() };
    this.next();
    return p;
  }

  /** One more level of blocks and brackets, counted where the careful pass's guard counts it (at the opening word). */
  private enter(): void {
    if (++this.depth > MAX_NESTING) throw GIVE_UP;
  }

  /** A statement ends at a separator, or right before a closing or top-level keyword. */
  private endStatement(): void {
    if (this.kind === SEP) this.next();
    else if (tokenRole[this.kind] === PLAIN) throw GIVE_UP;
  }

  // ---- top level

  /** The file's items; with a sink, none: each went to the sink. */
  file(): (A.TopItem | A.Stmt)[] {
    const items: (A.TopItem | A.Stmt)[] = [];
    const sink = this.sink;
    for (;;) {
      const k = this.kind;
      if (k === SEP) this.next();
      else if (k === END_OF_FILE) return items;
      else if (opensObject[k] === 1) {
        const block = this.objectBlock();
        if (sink !== null) sink.item(block);
        else items.push(block);
      } else if (k === ON) {
        const h = this.handler();
        if (sink !== null) sink.handler(h, null);
        else items.push(h);
      } else {
        const s = this.statement();
        if (!this.repl && s.type !== 'global') throw GIVE_UP;
        if (sink !== null) sink.item(s as A.GlobalDecl);
        else items.push(s);
      }
    }
  }

  private objectBlock(): A.ObjectBlock {
    const opener = this.kind;
    const kind = objectKind(typeByIdx[opener]!);
    const pos = this.pos();
    this.next();
    const id = this.ident();
    this.next();
    this.enter();
    const properties: A.PropertyDecl[] = [];
    const handlers: A.Handler[] = [];
    // endPos is the opener's until the block closes: a sink sees the block while it is read
    const block: A.ObjectBlock = { type: 'object', kind, name: id.name, spelled: id.spelled, pos, properties, handlers, endPos: pos };
    const sink = this.sink;
    for (;;) {
      const k = this.kind;
      if (k === SEP) this.next();
      else if (k === ON) {
        const h = this.handler();
        if (sink !== null) sink.handler(h, block);
        else handlers.push(h);
      } else if (k === PROPERTY) properties.push(this.propertyDecl());
      else break;
    }
    if (this.kind !== closerOf[opener]) throw GIVE_UP;
    block.endPos = this.pos();
    this.next();
    this.depth--;
    return block;
  }

  private propertyDecl(): A.PropertyDecl {
    const pos = this.pos();
    this.next();
    const id = this.ident();
    this.next();
    let init: A.Expr | null = null;
    if (this.kind === EQUALS) {
      this.next();
      init = this.expression();
    }
    this.endStatement();
    return { type: 'property', name: id.name, spelled: id.spelled, init, pos };
  }

  private handler(): A.Handler {
    const pos = this.pos();
    this.next();
    let noLoopCheck = false;
    if (this.kind === NOLOOPCHECK) {
      noLoopCheck = true;
      this.next();
    }
    const id = this.param();
    let params: A.Param[] = [];
    if (this.kind === LPAREN) {
      this.next();
      params = [];
      if (this.kind === IDENT) {
        params.push(this.param());
        while (this.kind === COMMA) {
          this.next();
          params.push(this.param());
        }
      }
      this.expect(RPAREN);
    }
    this.enter();
    const at: BodyStart | null = this.lazy ? this.bodyStart() : null;
    const body = this.block();
    const endPos = this.pos();
    this.expect(END);
    this.depth--;
    if (at !== null) return new LazyHandler(this.src, this.repl, at, id.name, id.spelled, params, pos, id.pos, noLoopCheck, endPos);
    return { type: 'handler', name: id.name, spelled: id.spelled, params, body, pos, namePos: id.pos, endPos, noLoopCheck };
  }

  /** Where the current token starts, for reading from it again. */
  private bodyStart(): BodyStart {
    return { offset: this.start, line: this.tline, lineStart: this.start - this.tcol + 1, depth: this.depth, table: this.table };
  }

  /** A handler body again, from `bodyStart` on (see lazyHandler). */
  body(): A.Stmt[] {
    const body = this.block();
    if (this.kind !== END) throw new Error('internal: a handler body read differently the second time');
    return body;
  }

  // ---- statements

  /** Statements up to a closing or top-level keyword (the construct around checks which). */
  private block(): A.Stmt[] {
    const from = this.stmts.length;
    for (;;) {
      const k = this.kind;
      if (k === SEP) this.next();
      else if (tokenRole[k] !== PLAIN) break;
      else this.stmts.push(this.statement());
    }
    return takeFrom(this.stmts, from);
  }

  private statement(): A.Stmt {
    let s: A.Stmt;
    switch (this.kind) {
      case IF:
        s = this.ifStmt();
        break;
      case WHILE: {
        const pos = this.pos();
        this.enter();
        this.next();
        const cond = this.expression();
        const body = this.block();
        this.expect(ENDWHILE);
        this.depth--;
        s = { type: 'while', cond, body, pos };
        break;
      }
      case FOR:
        s = this.forStmt();
        break;
      case BREAK:
        s = { type: 'break', pos: this.pos() };
        this.next();
        break;
      case CONTINUE:
        s = { type: 'continue', pos: this.pos() };
        this.next();
        break;
      case RETURN: {
        const pos = this.pos();
        this.next();
        s = { type: 'return', value: startsExpr[this.kind] === 1 ? this.expression() : null, pos };
        break;
      }
      case GLOBAL: {
        const pos = this.pos();
        this.next();
        const names = [this.param()];
        while (this.kind === COMMA) {
          this.next();
          names.push(this.param());
        }
        s = { type: 'global', names, pos };
        break;
      }
      default:
        s = this.expressionStatement();
    }
    this.endStatement();
    return s;
  }

  private ifStmt(): A.IfStmt {
    const pos = this.pos();
    this.enter();
    this.next();
    const cond = this.expression();
    this.expect(THEN);
    const body = this.block();
    const node: A.IfStmt = { type: 'if', branches: [{ cond, body, pos }], elseBody: null, pos };
    for (;;) {
      if (this.kind === ELSEIF) {
        if (node.elseBody !== null) throw GIVE_UP;
        const at = this.pos();
        this.next();
        const c = this.expression();
        this.expect(THEN);
        const b = this.block();
        node.branches.push({ cond: c, body: b, pos: at });
      } else if (this.kind === ELSE) {
        if (node.elseBody !== null) throw GIVE_UP;
        this.next();
        node.elseBody = this.block();
      } else break;
    }
    this.expect(ENDIF);
    this.depth--;
    return node;
  }

  private forStmt(): A.ForStmt {
    const pos = this.pos();
    this.enter();
    this.next();
    const v = this.param();
    this.expect(EQUALS);
    const from = this.expression();
    this.expect(TO);
    const to = this.expression();
    let step: A.Expr | null = null;
    if (this.kind === STEP) {
      this.next();
      step = this.expression();
    }
    const body = this.block();
    this.expect(ENDFOR);
    this.depth--;
    return { type: 'for', var: v, from, to, step, body, pos };
  }

  // ---- expressions

  /** An operand: prefix operators, a value, name, call or group, then indexes. */
  private operand(): A.Expr {
    let prefixes: IToken[] | null = null;
    while (this.kind === NOT || this.kind === MINUS) {
      if (++this.run > MAX_NESTING) throw GIVE_UP;
      (prefixes ??= []).push(this.opToken());
      this.next();
    }
    this.run = 0;
    let e: A.Expr;
    let plainName = false;
    let atomPos: A.Pos | null = null;
    switch (this.kind) {
      case NUMBER:
        e = { type: 'number', value: this.value as number, pos: (atomPos = this.pos()) };
        this.next();
        break;
      case STRING:
        e = { type: 'string', value: this.value as string, pos: (atomPos = this.pos()) };
        this.next();
        break;
      case IDENT: {
        const id = this.name!;
        const pos = (atomPos = this.pos());
        this.next();
        if (this.kind === LPAREN) {
          e = { type: 'call', name: id.name, spelled: id.spelled, args: this.list(RPAREN), pos };
        } else {
          e = { type: 'name', name: id.name, spelled: id.spelled, pos };
          plainName = true;
        }
        break;
      }
      case TRUE:
      case FALSE:
        e = { type: 'bool', value: this.kind === TRUE, pos: (atomPos = this.pos()) };
        this.next();
        break;
      case VOID:
        e = { type: 'void', pos: (atomPos = this.pos()) };
        this.next();
        break;
      case SELF:
        e = { type: 'self', pos: (atomPos = this.pos()) };
        this.next();
        break;
      case LPAREN:
        this.enter();
        this.next();
        e = this.expression();
        this.expect(RPAREN);
        this.depth--;
        break;
      case LBRACKET: {
        const pos = this.pos();
        e = { type: 'list', items: this.list(RBRACKET), pos };
        break;
      }
      default:
        throw GIVE_UP;
    }
    while (this.kind === LBRACKET) {
      const pos = this.pos();
      this.enter();
      this.next();
      const index = this.expression();
      this.expect(RBRACKET);
      this.depth--;
      e = { type: 'index', target: e, index, pos };
    }
    this.prefixes = prefixes;
    this.plainName = plainName;
    this.atomPos = prefixes === null ? atomPos : null;
    return e;
  }

  /** `(` or `[`, expressions separated by commas, then `closer`. */
  private list(closer: number): A.Expr[] {
    this.enter();
    this.next();
    const from = this.args.length;
    if (this.kind !== closer) {
      this.args.push(this.expression());
      while (this.kind === COMMA) {
        this.next();
        this.args.push(this.expression());
      }
    }
    this.expect(closer);
    this.depth--;
    return takeFrom(this.args, from);
  }

  /** Operators after the first operand, flat: build-ast.ts applies precedence. */
  private tail(): FlatTail | null {
    let tail: FlatTail | null = null;
    while (isBinOp[this.kind] === 1) {
      const op = this.opToken();
      this.run = this.kind === MINUS ? 1 : 0;
      this.next();
      const expr = this.operand();
      const operand: BuiltOperand = { prefixes: this.prefixes, expr };
      if (tail === null) tail = { ops: [op], operands: [operand] };
      else {
        tail.ops.push(op);
        tail.operands.push(operand);
      }
    }
    return tail;
  }

  private expression(): A.Expr {
    const first = this.operand();
    const prefixes = this.prefixes;
    const tail = this.tail();
    if (tail === null && prefixes === null) return first;
    return readFlat(this.b, first, prefixes, tail, 0);
  }

  private expressionStatement(): A.Stmt {
    const line = this.tline;
    const col = this.tcol;
    const first = this.operand();
    const prefixes = this.prefixes;
    const isName = this.plainName;
    // a statement and the value it starts with share one Pos
    const pos = this.atomPos ?? { line, col };
    const tail = this.tail();
    return expressionStatement(this.b, pos, first, prefixes, isName, tail);
  }
}

function giveUp(): never {
  throw GIVE_UP;
}

/**
 * Told of a file's items as soon as each is read, for a compiler that compiles a
 * handler while the reader goes on to the next (the file's AST then never lives whole,
 * and no body is read twice). Should the reader give up further on (a mistake, or
 * nesting past the limit), what the sink was told still stands
 * as read: the caller decides what to do with it.
 */
export interface ReadSink {
  /** A handler, body and all; `block` is the object block it is in (holding the properties read so far), or null. */
  handler(h: A.Handler, block: A.ObjectBlock | null): void;
  /** A top-level `global` declaration, or an object block once it has closed (its handlers went to `handler`). */
  item(item: A.GlobalDecl | A.ObjectBlock): void;
}

/** Where a handler body starts, and the words of its file. */
interface BodyStart {
  offset: number;
  line: number;
  lineStart: number;
  depth: number;
  table: WordTable;
}

// The body a lazy handler read last, kept while the compiler works on it: it asks for a
// handler's body twice (a scan, then the code), and then goes on to the next handler.
let lastHandler: LazyHandler | null = null;
let lastBody: A.Stmt[] = [];

/**
 * A handler whose body is read again from the source each time it is asked for (the
 * last one read is kept). While a big file loads, its AST then never lives all at once:
 * the bodies that the compiler has done with die young, and the garbage collector has
 * little to copy or mark. The body reads exactly as the first time, which checked it.
 * `body` is a getter of the class, so it is not an own property: such handlers go only
 * to the compiler.
 */
class LazyHandler implements A.Handler {
  readonly type = 'handler';
  readonly #src: string;
  readonly #repl: boolean;
  readonly #at: BodyStart;

  constructor(
    src: string,
    repl: boolean,
    at: BodyStart,
    readonly name: string,
    readonly spelled: string,
    readonly params: A.Param[],
    readonly pos: A.Pos,
    readonly namePos: A.Pos,
    readonly noLoopCheck: boolean,
    readonly endPos: A.Pos,
  ) {
    this.#src = src;
    this.#repl = repl;
    this.#at = at;
  }

  get body(): A.Stmt[] {
    if (lastHandler !== this) {
      lastBody = new Reader(this.#src, this.#repl, true, this.#at).body();
      lastHandler = this;
    }
    return lastBody;
  }
}

/** Lets go of the body a lazy handler read last (and, through it, of its file). */
export function forgetReadBody(): void {
  lastHandler = null;
  lastBody = [];
}

/**
 * The AST of a script without mistakes, read directly, or null if the script has any
 * (nesting past the limit included): the careful pass then reads it and says what.
 * @param repl statements may stand at top level (REPL input)
 * @param lazyBodies handlers read their bodies again whenever asked for them (see
 *   LazyHandler): for a compiler that walks each body once or twice, then drops it
 */
export function readDirect(source: string, repl: boolean, lazyBodies = false): (A.TopItem | A.Stmt)[] | null {
  try {
    return new Reader(source, repl, lazyBodies).file();
  } catch (e) {
    if (e === GIVE_UP || e instanceof RangeError) return null;
    throw e;
  }
}

/**
 * Reads a script file, handing each item to `sink` as soon as it is read (see ReadSink);
 * false when the reader gave up (the careful pass must read the file). Anything
 * else the sink throws goes to the caller; a RangeError counts as giving up, wherever
 * it came from (the stack ran out).
 */
export function readDirectInto(source: string, sink: ReadSink): boolean {
  try {
    new Reader(source, false, false, null, sink).file();
    return true;
  } catch (e) {
    if (e === GIVE_UP || e instanceof RangeError) return false;
    throw e;
  }
}
