// The chevrotain grammar of the scripting language and the public parse functions.
// Statements end at a newline or ";". Blocks close with their own keyword; when one is
// missing, the block stops at the closer of an enclosing construct (or a top-level
// keyword, or the end of the file) and the parser says which opener is unclosed.
import { CstParser, EOF, tokenMatcher } from 'chevrotain';
import type { CstNode, IToken, TokenType } from 'chevrotain';
import type { ParseResult, Pos, Stmt, SyntaxProblem, TopItem } from './ast.ts';
import * as T from './lexer.ts';
import { lex } from './lexer.ts';
import { junkMessage, parserMessages, strayCloserMessage } from './messages.ts';
import { AstBuilder } from './build-ast.ts';

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

// How the block loops treat the next token, indexed by tokenTypeIdx.
const PLAIN = 0;
const CLOSER = 1; // ends a block if an enclosing construct owns it, else is stray
const ENDER = 2; // always ends statement blocks (top-level keywords, end of file)

const maxIdx = Math.max(EOF.tokenTypeIdx!, ...T.allTokens.map((t) => t.tokenTypeIdx!));
const tokenRole = new Uint8Array(maxIdx + 1);
for (const t of [T.End, T.Endif, T.Else, T.Elseif, T.Endwhile, T.Endfor, T.Endset, T.Endactor, T.Endprop, T.Endflat]) {
  tokenRole[t.tokenTypeIdx!] = CLOSER;
}
for (const t of [T.On, T.SetKw, T.Actor, T.Prop, T.Flat, EOF]) tokenRole[t.tokenTypeIdx!] = ENDER;

const objectCloserFor = new Map<TokenType, TokenType>([
  [T.SetKw, T.Endset],
  [T.Actor, T.Endactor],
  [T.Prop, T.Endprop],
  [T.Flat, T.Endflat],
]);

class PocketwatchParser extends CstParser {
  // How many constructs of each kind are open around the current position; a closing
  // keyword nobody owns is reported as stray instead of ending blocks.
  private openIfs = 0;
  private openWhiles = 0;
  private openFors = 0;
  private openHandlers = 0;
  private openObjects = 0;
  /** problems the grammar actions report themselves (unclosed blocks, stray words) */
  problems: Problem[] = [];
  /** where "the end of the file" is, for problems found there */
  endPos: Pos = { line: 1, col: 1 };
  endOffset = 0;

  /**
   * @param validate run chevrotain's grammar checks (ambiguities, left recursion…).
   *   They cost start-up time, so the shared parser skips them and a test runs them.
   */
  constructor(validate = false) {
    super(T.allTokens, {
      recoveryEnabled: true,
      // The grammar is LL(1); a smaller lookahead also makes start-up analysis cheaper.
      maxLookahead: 1,
      skipValidations: !validate,
      errorMessageProvider: parserMessages,
    });
    this.performSelfAnalysis();
  }

  override reset(): void {
    super.reset();
    this.openIfs = this.openWhiles = this.openFors = this.openHandlers = this.openObjects = 0;
    this.problems = [];
  }

  // Speed: alternatives, repetition bodies and options used by frequently called rules
  // are built once here. Building them inline would allocate fresh closures and arrays
  // on every rule call, which was most of the parser's garbage. Semantic code checks
  // RECORDING_PHASE (chevrotain's grammar-recording pass) instead of wrapping in ACTION
  // for the same reason.

  private readonly consumeSep = (): IToken => this.CONSUME(T.Sep);

  private readonly fileAlts = [
    { ALT: this.consumeSep },
    {
      ALT: (): void => {
        const item = this.SUBRULE(this.topItem);
        if (!this.RECORDING_PHASE && this.onTopItem !== null) this.handOver(item);
      },
    },
  ];

  /** Receives each top-level item as soon as it is parsed. */
  onTopItem: ((item: CstNode) => void) | null = null;

  // Each top-level item is turned into AST right away and dropped from the CST, so
  // the CST never holds more than one item: it dies young, which keeps garbage
  // collection cheap and memory flat on big files.
  private handOver(item: CstNode): void {
    this.onTopItem!(item);
    const stack = (this as unknown as { CST_STACK: CstNode[] }).CST_STACK;
    const items = stack[stack.length - 1]?.children.topItem;
    if (items !== undefined && items[items.length - 1] === item) items.pop();
  }
  private readonly fileItem = (): unknown => this.OR(this.fileAlts);

  public file = this.RULE('file', () => {
    this.MANY(this.fileItem);
  });

  private readonly topItemAlts = [
    { ALT: () => this.SUBRULE(this.objectBlock) },
    { ALT: () => this.SUBRULE(this.handler) },
    { ALT: () => this.SUBRULE(this.propertyDecl) },
    { ALT: () => this.SUBRULE(this.statement) },
    { ALT: () => this.SUBRULE(this.strayCloser) },
    { ALT: () => this.SUBRULE(this.junk) },
  ];

  // One node per item keeps top-level items in source order in the CST.
  public topItem = this.RULE('topItem', () => {
    this.OR(this.topItemAlts);
  });

  private readonly objectBodyAlts = [
    { ALT: this.consumeSep },
    { ALT: () => this.SUBRULE(this.handler) },
    { ALT: () => this.SUBRULE(this.propertyDecl) },
    { ALT: () => this.SUBRULE(this.statement) },
    { ALT: () => this.SUBRULE(this.strayCloser) },
    { ALT: () => this.SUBRULE(this.junk) },
  ];
  private readonly objectBodyLoop = {
    GATE: () => this.objectBodyGoesOn(),
    DEF: () => this.OR(this.objectBodyAlts),
  };

  public objectBlock = this.RULE('objectBlock', () => {
    const opener = this.CONSUME(T.ObjectOpener);
    const name = this.CONSUME(T.Identifier);
    if (!this.RECORDING_PHASE) this.openObjects++;
    try {
      this.MANY(this.objectBodyLoop);
      const closer = this.OPTION(() => this.CONSUME(T.ObjectCloser));
      if (!this.RECORDING_PHASE) {
        const kind = opener.image.toLowerCase();
        const want = objectCloserFor.get(opener.tokenType) ?? T.Endset;
        const what = `the ${kind} "${name.image}" opened at ${where(opener)}`;
        if (closer === undefined) {
          this.unclosed(`expected ${want.LABEL} to close ${what}`);
        } else if (closer.tokenType !== want) {
          this.report(closer, `expected ${want.LABEL} to close ${what}, not "${closer.image}"`);
        }
      }
    } finally {
      if (!this.RECORDING_PHASE) this.openObjects--;
    }
  });

  private readonly propertyInit = (): void => {
    this.CONSUME(T.Equals);
    this.SUBRULE(this.expression);
  };

  public propertyDecl = this.RULE('propertyDecl', () => {
    const first = this.CONSUME(T.Property);
    this.CONSUME(T.Identifier);
    this.OPTION(this.propertyInit);
    if (this.OPTION2(this.consumeSep) === undefined) this.endStatement(first);
  });

  public handler = this.RULE('handler', () => {
    const on = this.CONSUME(T.On);
    this.OPTION(() => this.CONSUME(T.Noloopcheck));
    const name = this.CONSUME(T.Identifier);
    this.OPTION2(() => this.SUBRULE(this.params));
    if (!this.RECORDING_PHASE) this.openHandlers++;
    try {
      this.SUBRULE(this.block);
      const end = this.OPTION3(() => this.CONSUME(T.End));
      if (!this.RECORDING_PHASE && end === undefined) {
        this.unclosed(`expected "end" to close the handler "${name.image}" opened at ${where(on)}`);
      }
    } finally {
      if (!this.RECORDING_PHASE) this.openHandlers--;
    }
  });

  public params = this.RULE('params', () => {
    this.CONSUME(T.LParen);
    this.OPTION(() => {
      this.CONSUME(T.Identifier);
      this.MANY(() => {
        this.CONSUME(T.Comma);
        this.CONSUME2(T.Identifier);
      });
    });
    this.CONSUME(T.RParen);
  });

  private readonly blockAlts = [
    { ALT: this.consumeSep },
    { ALT: () => this.SUBRULE(this.statement) },
    { ALT: () => this.SUBRULE(this.propertyDecl) },
    { ALT: () => this.SUBRULE(this.strayCloser) },
    { ALT: () => this.SUBRULE(this.junk) },
  ];
  private readonly blockLoop = {
    GATE: () => this.blockGoesOn(),
    DEF: () => this.OR(this.blockAlts),
  };

  // Statements of a handler, loop or branch. Property declarations, stray closers and
  // junk are accepted here only to report them and carry on.
  public block = this.RULE('block', () => {
    this.MANY(this.blockLoop);
  });

  private readonly statementAlts = [
    { ALT: () => this.SUBRULE(this.ifStmt) },
    { ALT: () => this.SUBRULE(this.whileStmt) },
    { ALT: () => this.SUBRULE(this.forStmt) },
    { ALT: () => this.CONSUME(T.Break) },
    { ALT: () => this.CONSUME(T.Continue) },
    { ALT: () => this.SUBRULE(this.returnStmt) },
    { ALT: () => this.SUBRULE(this.globalDecl) },
    // Assignments are expressions whose first operator is "=" (see build-ast.ts).
    { ALT: () => this.SUBRULE(this.expression) },
  ];

  public statement = this.RULE('statement', () => {
    const first = this.RECORDING_PHASE ? undefined : this.LA(1);
    this.OR(this.statementAlts);
    if (this.OPTION(this.consumeSep) === undefined) this.endStatement(first);
  });

  private readonly ifClauseAlts = [
    { ALT: () => this.SUBRULE(this.elseifClause) },
    { ALT: () => this.SUBRULE(this.elseClause) },
  ];
  private readonly ifClause = (): unknown => this.OR(this.ifClauseAlts);

  public ifStmt = this.RULE('ifStmt', () => {
    const opener = this.CONSUME(T.If);
    this.SUBRULE(this.expression);
    this.CONSUME(T.Then);
    if (!this.RECORDING_PHASE) this.openIfs++;
    try {
      this.SUBRULE(this.block);
      // elseif after else is accepted here and reported by the AST step, in words.
      this.MANY(this.ifClause);
      const end = this.OPTION(() => this.CONSUME(T.Endif));
      if (!this.RECORDING_PHASE && end === undefined) {
        this.unclosed(`expected "endif" to close the "if" opened at ${where(opener)}`);
      }
    } finally {
      if (!this.RECORDING_PHASE) this.openIfs--;
    }
  });

  public elseifClause = this.RULE('elseifClause', () => {
    this.CONSUME(T.Elseif);
    this.SUBRULE(this.expression);
    this.CONSUME(T.Then);
    this.SUBRULE(this.block);
  });

  public elseClause = this.RULE('elseClause', () => {
    this.CONSUME(T.Else);
    this.SUBRULE(this.block);
  });

  public whileStmt = this.RULE('whileStmt', () => {
    const opener = this.CONSUME(T.While);
    this.SUBRULE(this.expression);
    if (!this.RECORDING_PHASE) this.openWhiles++;
    try {
      this.SUBRULE(this.block);
      const end = this.OPTION(() => this.CONSUME(T.Endwhile));
      if (!this.RECORDING_PHASE && end === undefined) {
        this.unclosed(`expected "endwhile" to close the while loop opened at ${where(opener)}`);
      }
    } finally {
      if (!this.RECORDING_PHASE) this.openWhiles--;
    }
  });

  public forStmt = this.RULE('forStmt', () => {
    const opener = this.CONSUME(T.For);
    this.CONSUME(T.Identifier);
    this.CONSUME(T.Equals);
    this.SUBRULE(this.expression, { LABEL: 'from' });
    this.CONSUME(T.To);
    this.SUBRULE2(this.expression, { LABEL: 'to' });
    this.OPTION(() => {
      this.CONSUME(T.Step);
      this.SUBRULE3(this.expression, { LABEL: 'step' });
    });
    if (!this.RECORDING_PHASE) this.openFors++;
    try {
      this.SUBRULE(this.block);
      const end = this.OPTION2(() => this.CONSUME(T.Endfor));
      if (!this.RECORDING_PHASE && end === undefined) {
        this.unclosed(`expected "endfor" to close the for loop opened at ${where(opener)}`);
      }
    } finally {
      if (!this.RECORDING_PHASE) this.openFors--;
    }
  });

  private readonly returnValue = (): CstNode => this.SUBRULE(this.expression);

  public returnStmt = this.RULE('returnStmt', () => {
    this.CONSUME(T.Return);
    this.OPTION(this.returnValue);
  });

  public globalDecl = this.RULE('globalDecl', () => {
    this.CONSUME(T.Global);
    this.CONSUME(T.Identifier);
    this.MANY(() => {
      this.CONSUME(T.Comma);
      this.CONSUME2(T.Identifier);
    });
  });

  public strayCloser = this.RULE('strayCloser', () => {
    const t = this.CONSUME(T.Closer);
    if (!this.RECORDING_PHASE) this.report(t, strayCloserMessage(t));
  });

  public junk = this.RULE('junk', () => {
    const t = this.CONSUME(T.Junk);
    if (!this.RECORDING_PHASE) this.report(t, junkMessage(t));
  });

  // An operand: prefix operators, a literal / name / call / group, then indexes. It is
  // inlined into `expression` rather than a rule of its own because rule calls are
  // the parser's main cost; build-ast.ts splits the children back into operands by
  // their position between the operator tokens. `i` is the DSL occurrence index:
  // 1 for the first operand, 2 for the ones after operators.
  private operandParts(i: number): () => void {
    const prefixAlts = [{ ALT: () => this.consume(i, T.Not) }, { ALT: () => this.consume(i, T.Minus) }];
    const prefix = (): unknown => this.or(i, prefixAlts);
    const call = (): CstNode => this.subrule(i, this.callArgs);
    const atomAlts = [
      { ALT: () => this.consume(i, T.NumberLit) },
      { ALT: () => this.consume(i, T.StringLit) },
      {
        ALT: (): void => {
          this.consume(i, T.Identifier);
          this.option(i, call);
        },
      },
      { ALT: () => this.consume(i, T.True) },
      { ALT: () => this.consume(i, T.False) },
      { ALT: () => this.consume(i, T.Void) },
      { ALT: () => this.consume(i, T.Self) },
      { ALT: () => this.subrule(i, this.parenExpr) },
      { ALT: () => this.subrule(i, this.listLit) },
    ];
    const index = (): CstNode => this.subrule(i, this.indexSuffix);
    return () => {
      this.many(i, prefix);
      this.or(i + 2, atomAlts);
      this.many(i + 2, index);
    };
  }
  private readonly firstOperand = this.operandParts(1);
  private readonly nextOperand = this.operandParts(2);
  private readonly operatorAndOperand = (): void => {
    this.CONSUME(T.BinOp);
    this.nextOperand();
  };

  // Operators are parsed flat (operand, operator, operand, …); build-ast.ts applies
  // precedence. This keeps the tree shallow, which matters for speed, and lets the
  // chained-comparison error say exactly what is wrong.
  public expression = this.RULE('expression', () => {
    this.firstOperand();
    this.MANY(this.operatorAndOperand);
  });

  private readonly moreArgs = (): void => {
    this.CONSUME(T.Comma);
    this.SUBRULE2(this.expression);
  };
  private readonly someArgs = (): void => {
    this.SUBRULE(this.expression);
    this.MANY(this.moreArgs);
  };

  public callArgs = this.RULE('callArgs', () => {
    this.CONSUME(T.LParen);
    this.OPTION(this.someArgs);
    this.CONSUME(T.RParen);
  });

  public parenExpr = this.RULE('parenExpr', () => {
    this.CONSUME(T.LParen);
    this.SUBRULE(this.expression);
    this.CONSUME(T.RParen);
  });

  public listLit = this.RULE('listLit', () => {
    this.CONSUME(T.LBracket);
    this.OPTION(this.someArgs);
    this.CONSUME(T.RBracket);
  });

  public indexSuffix = this.RULE('indexSuffix', () => {
    this.CONSUME(T.LBracket);
    this.SUBRULE(this.expression);
    this.CONSUME(T.RBracket);
  });

  // Chevrotain gives each CST node a null-prototype children object, which V8 keeps
  // in slow dictionary mode; a plain object is much faster to fill and to read. No
  // rule or token is named like an Object.prototype member, so keys cannot collide.
  cstInvocationStateUpdate(fullRuleName: string): void {
    (this as unknown as { CST_STACK: CstNode[] }).CST_STACK.push({ name: fullRuleName, children: {} });
  }

  // Chevrotain searches the follow sets outermost rule first, so a category in an outer
  // set (Junk holds "then" and ")") wins over the exact token an inner rule waits for,
  // and a whole statement is thrown away instead of just its broken expression. This
  // picks the innermost rule's match for the first token any rule can resume at.
  findReSyncTokenType(): TokenType {
    const self = this as unknown as RecoveryInternals;
    const sets = self.buildFullFollowKeyStack().map((key) => self.getFollowSetFromFollowKey(key));
    for (let k = 1; ; k++) {
      const next = this.LA(k);
      for (let i = sets.length - 1; i >= 0; i--) {
        const set = sets[i];
        if (set === undefined) continue;
        for (const type of set) if (tokenMatcher(next, type)) return type;
      }
      if (next.tokenType === EOF) return EOF;
    }
  }

  // A statement ends at a separator, or right before a closing keyword so that
  // one-liners like `if x then print (1) endif` work. Called when no separator followed.
  private endStatement(first: IToken | undefined): void {
    if (this.RECORDING_PHASE) return;
    const next = this.LA(1);
    if (tokenRole[next.tokenTypeIdx] !== PLAIN) return;
    const prev = this.LA(0);
    if (first !== undefined && prev === first && first.tokenType === T.Identifier) {
      this.report(next, `to call "${first.image}", put its arguments in parentheses: ${first.image} (…)`);
    } else {
      const found = tokenMatcher(next, T.StringLit) ? 'a string' : `"${next.image}"`;
      this.report(next, `expected the end of the line or ";" after the statement, found ${found}`);
    }
  }

  private owned(t: TokenType): boolean {
    switch (t) {
      case T.End:
        return this.openHandlers > 0;
      case T.Endif:
      case T.Else:
      case T.Elseif:
        return this.openIfs > 0;
      case T.Endwhile:
        return this.openWhiles > 0;
      case T.Endfor:
        return this.openFors > 0;
      default:
        return this.openObjects > 0;
    }
  }

  private blockGoesOn(): boolean {
    const t = this.LA(1);
    const role = tokenRole[t.tokenTypeIdx];
    if (role === PLAIN) return true;
    if (role === ENDER) return false;
    return !this.owned(t.tokenType);
  }

  private objectBodyGoesOn(): boolean {
    const t = this.LA(1).tokenType;
    if (tokenRole[t.tokenTypeIdx!] === ENDER) return t === T.On;
    return !(t === T.Endset || t === T.Endactor || t === T.Endprop || t === T.Endflat);
  }

  report(t: IToken, message: string, unclosedAtEnd = false): void {
    if (t.tokenType === EOF || !(t.startOffset >= 0)) {
      this.problems.push({
        offset: this.endOffset,
        line: this.endPos.line,
        col: this.endPos.col,
        length: 1,
        message,
        unclosedAtEnd,
      });
      return;
    }
    this.problems.push({
      offset: t.startOffset,
      line: t.startLine ?? 1,
      col: t.startColumn ?? 1,
      length: Math.max(1, t.tokenType === T.Newline ? 1 : t.image.length),
      message,
    });
  }

  /** A block ended without its closing keyword, at the next token. */
  private unclosed(message: string): void {
    const next = this.LA(1);
    this.report(next, message, next.tokenType === EOF);
  }
}

/** The parts of chevrotain's recovery that findReSyncTokenType builds on. */
interface RecoveryInternals {
  buildFullFollowKeyStack(): unknown[];
  getFollowSetFromFollowKey(key: unknown): TokenType[] | undefined;
}

function atToken(t: IToken, message: string): Problem {
  return {
    offset: t.startOffset,
    line: t.startLine ?? 1,
    col: t.startColumn ?? 1,
    length: Math.max(1, t.image.length),
    message,
  };
}

function where(t: IToken): string {
  return `${t.startLine}:${t.startColumn}`;
}

// One parser for the whole process: building one runs the grammar analysis.
export const parser = new PocketwatchParser();

/** Builds a throw-away parser with chevrotain's grammar checks on; throws if any fails. */
export function validateGrammar(): void {
  new PocketwatchParser(true);
}

interface RawParse {
  items: (TopItem | Stmt)[];
  tokens: IToken[];
  problems: Problem[];
}

function endOf(tokens: IToken[], source: string): { pos: Pos; offset: number } {
  for (let i = tokens.length - 1; i >= 0; i--) {
    const t = tokens[i]!;
    if (t.tokenType === T.Newline) continue;
    return {
      pos: { line: t.startLine ?? 1, col: (t.startColumn ?? 1) + t.image.length },
      offset: Math.min(source.length, t.startOffset + t.image.length),
    };
  }
  return { pos: { line: 1, col: 1 }, offset: 0 };
}

// The parser and the AST step recurse once or more per level of nesting; a few
// hundred levels would exhaust the stack. No real script comes near this limit.
const MAX_NESTING = 200;

const OPENS_BRACKET = 1;
const CLOSES_BRACKET = 2;
const OPENS_BLOCK = 3;
const CLOSES_BLOCK = 4;
const SEPARATES = 5;
const PREFIXES = 6;
const nestingRole = new Uint8Array(maxIdx + 1);
for (const t of [T.LParen, T.LBracket]) nestingRole[t.tokenTypeIdx!] = OPENS_BRACKET;
for (const t of [T.RParen, T.RBracket]) nestingRole[t.tokenTypeIdx!] = CLOSES_BRACKET;
for (const t of [T.If, T.While, T.For, T.On, T.SetKw, T.Actor, T.Prop, T.Flat]) nestingRole[t.tokenTypeIdx!] = OPENS_BLOCK;
for (const t of [T.Endif, T.Endwhile, T.Endfor, T.End, T.Endset, T.Endactor, T.Endprop, T.Endflat]) {
  nestingRole[t.tokenTypeIdx!] = CLOSES_BLOCK;
}
for (const t of [T.Newline, T.Semicolon]) nestingRole[t.tokenTypeIdx!] = SEPARATES;
for (const t of [T.Not, T.Minus]) nestingRole[t.tokenTypeIdx!] = PREFIXES;

/**
 * The first token that opens more than MAX_NESTING levels of blocks and brackets
 * together, or continues a run of more than MAX_NESTING `not`/`-` in a row.
 * Brackets never outlive a statement (the parser recovers at its end), so their count
 * restarts at each separator; unclosed blocks keep counting, as they do nest.
 */
function tooDeep(tokens: IToken[]): Problem | null {
  let blocks = 0;
  let brackets = 0;
  let run = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const role = nestingRole[t.tokenTypeIdx];
    if (role === 0) {
      run = 0;
      continue;
    }
    if (role === PREFIXES) {
      if (++run > MAX_NESTING) return atToken(t, `too many "not" and "-" in a row (more than ${MAX_NESTING})`);
      continue;
    }
    run = 0;
    if (role === OPENS_BRACKET) brackets++;
    else if (role === CLOSES_BRACKET) brackets = Math.max(0, brackets - 1);
    else if (role === OPENS_BLOCK) blocks++;
    else if (role === CLOSES_BLOCK) blocks = Math.max(0, blocks - 1);
    else brackets = 0;
    if (blocks + brackets > MAX_NESTING) {
      return atToken(t, `this is nested too deeply: more than ${MAX_NESTING} levels of blocks and brackets`);
    }
  }
  return null;
}

function parseTokens(source: string, file: string, repl: boolean): RawParse {
  const { tokens, problems: lexProblems } = lex(source);
  const end = endOf(tokens, source);
  const problems: Problem[] = lexProblems.slice();
  const items: (TopItem | Stmt)[] = [];
  const deep = tooDeep(tokens);
  if (deep !== null) {
    problems.push(deep);
    return { items, tokens, problems };
  }
  const builder = new AstBuilder({ file, problems, endPos: end.pos, endOffset: end.offset }, repl);
  parser.input = tokens;
  parser.endPos = end.pos;
  parser.endOffset = end.offset;
  parser.onTopItem = (item) => builder.topItem(item, items);
  let rest: CstNode;
  try {
    rest = parser.file();
  } catch (e) {
    // Only a stack overflow can get here, from nesting the guard above let through.
    if (!(e instanceof RangeError)) throw e;
    problems.push({ offset: 0, line: 1, col: 1, length: 1, message: 'this script is nested too deeply to read' });
    return { items: [], tokens, problems };
  } finally {
    parser.onTopItem = null;
  }
  // Items that error recovery attached without finishing their rule.
  for (const item of rest.children.topItem ?? []) builder.topItem(item as CstNode, items);
  for (const e of parser.errors) {
    const t = e.token;
    const atEnd = t.tokenType === EOF || !(t.startOffset >= 0);
    problems.push({
      offset: atEnd ? end.offset : t.startOffset,
      line: atEnd ? end.pos.line : (t.startLine ?? 1),
      col: atEnd ? end.pos.col : (t.startColumn ?? 1),
      length: atEnd || t.tokenType === T.Newline ? 1 : Math.max(1, t.image.length),
      message: e.message,
    });
  }
  for (const p of parser.problems) problems.push(p);
  return { items, tokens, problems };
}

/**
 * Keeps one problem per spot: the first at each offset, and the first on each line
 * unless a ";" separates them (later ones on a line are usually knock-on effects).
 */
function settle(problems: Problem[], tokens: IToken[], file: string): SyntaxProblem[] {
  const sorted = problems.slice().sort((a, b) => a.offset - b.offset);
  const out: SyntaxProblem[] = [];
  let last: Problem | undefined;
  for (const p of sorted) {
    if (last !== undefined) {
      if (p.offset === last.offset) continue;
      if (p.line === last.line && !semicolonBetween(tokens, last.offset, p.offset)) continue;
    }
    last = p;
    out.push({ file, pos: { line: p.line, col: p.col }, length: p.length, message: p.message });
  }
  return out;
}

function semicolonBetween(tokens: IToken[], from: number, to: number): boolean {
  let lo = 0;
  let hi = tokens.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (tokens[mid]!.startOffset <= from) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.startOffset >= to) break;
    if (t.tokenType === T.Semicolon) return true;
  }
  return false;
}

/** Parses a whole script file. Never throws; every syntax error is in `errors`. */
export function parseFile(source: string, file: string): ParseResult {
  const raw = parseTokens(source, file, false);
  return {
    ast: { file, source, items: raw.items as TopItem[] },
    errors: settle(raw.problems, raw.tokens, file),
  };
}

/** Parses REPL input: top-level items and statements, in the order typed. */
export function parseRepl(
  source: string,
  file: string,
): { items: (TopItem | Stmt)[]; errors: SyntaxProblem[] } {
  const raw = parseTokens(source, file, true);
  return { items: raw.items, errors: settle(raw.problems, raw.tokens, file) };
}

/**
 * True when REPL input opens a block (on, set…, if, while, for) whose closing keyword
 * has not been typed yet and nothing else is wrong, so the REPL should read more lines.
 */
export function isIncomplete(source: string): boolean {
  const raw = parseTokens(source, '<repl>', true);
  return raw.problems.length > 0 && raw.problems.every((p) => p.unclosedAtEnd === true);
}
