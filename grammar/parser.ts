// The chevrotain grammar of the scripting language and the public parse functions.
// Statements end at a newline or ";". Blocks close with their own keyword; when one is
// missing, the block stops at the closer of an enclosing construct (or a top-level
// keyword, or the end of the file) and the parser says which opener is unclosed.
import { CstParser, EOF, tokenMatcher } from 'chevrotain';
import type { CstNode, IToken, TokenType } from 'chevrotain';
import type { ParseResult, Pos, Stmt, SyntaxProblem, TopItem } from './ast.ts';
import * as T from './lexer.ts';
import { lex } from './lexer.ts';
import { junkMessage, parserMessages, strayCloserMessage, type Problem } from './messages.ts';
export type { Problem } from './messages.ts';
import { CLOSES_BLOCK, CLOSES_BRACKET, ENDER, MAX_NESTING, OPENS_BLOCK, OPENS_BRACKET, OWNERS, PLAIN, PREFIXES, BLOCKS, blockOf, closesObject, nestingRole, ownerOf, tokenRole } from './roles.ts';
import { readDirect } from './direct.ts';
import { mendHabits } from './habits.ts';
import { AstBuilder } from './build-ast.ts';

// The language is read two ways. Every script is read by direct.ts first, which follows
// this grammar by hand and builds the AST of a script without mistakes. When it gives
// up, the careful pass below reads the script: error recovery on, a concrete syntax
// tree, and build-ast.ts to turn it into AST and word the mistakes only visible there.
// Only the careful pass ever reports anything, so every message comes from one place.
// The parser is built on first use: most runs never need it, and building it costs
// start-up time.

class PocketwatchParser extends CstParser {
  // How many blocks of each owner (roles.ts) are open around the current position; a
  // closing keyword nobody owns is reported as stray instead of ending blocks.
  private opened = new Uint32Array(OWNERS);
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
    this.opened = new Uint32Array(OWNERS);
    this.problems = [];
  }

  // Speed: alternatives, repetition bodies and options used by frequently called rules
  // are built once here. Building them inline would allocate fresh closures and arrays
  // on every rule call. Code that must not run while chevrotain records the grammar
  // checks RECORDING_PHASE instead of wrapping in ACTION for the same reason.

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

  // Property declarations, statements, stray closers and junk are accepted where they
  // do not belong only to report them (here or in build-ast.ts) and carry on.
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
  private readonly objectCloser = (): IToken => this.CONSUME(T.ObjectCloser);

  public objectBlock = this.RULE('objectBlock', () => {
    const opener = this.CONSUME(T.ObjectOpener);
    const name = this.CONSUME(T.Identifier);
    this.enterBlock(T.ObjectOpener);
    try {
      this.MANY(this.objectBodyLoop);
      const closer = this.OPTION(this.objectCloser);
      if (!this.RECORDING_PHASE) {
        const kind = opener.image.toLowerCase();
        const want = blockOf[opener.tokenTypeIdx]?.closer ?? T.Endset;
        const what = `the ${kind} "${name.image}" opened at ${where(opener)}`;
        if (closer === undefined) {
          this.unclosed(`expected ${want.LABEL} to close ${what}`);
        } else if (closer.tokenType !== want) {
          this.report(closer, `expected ${want.LABEL} to close ${what}, not "${closer.image}"`);
        }
      }
    } finally {
      this.leaveBlock(T.ObjectOpener);
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

  private readonly noLoopCheck = (): IToken => this.CONSUME(T.Noloopcheck);
  private readonly handlerParams = (): CstNode => this.SUBRULE(this.params);
  private readonly handlerEnd = (): IToken => this.CONSUME(T.End);

  public handler = this.RULE('handler', () => {
    const on = this.CONSUME(T.On);
    this.OPTION(this.noLoopCheck);
    const name = this.CONSUME(T.Identifier);
    this.OPTION2(this.handlerParams);
    this.enterBlock(T.On);
    try {
      this.SUBRULE(this.block);
      const end = this.OPTION3(this.handlerEnd);
      if (!this.RECORDING_PHASE && end === undefined) {
        this.unclosed(`expected "end" to close the handler "${name.image}" opened at ${where(on)}`);
      }
    } finally {
      this.leaveBlock(T.On);
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

  // Statements of a handler, loop or branch.
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

  private readonly ifClauseAlts = [{ ALT: () => this.SUBRULE(this.elseifClause) }, { ALT: () => this.SUBRULE(this.elseClause) }];
  // elseif after else is accepted here and reported by the AST step, in words.
  private readonly ifClause = (): void => {
    this.OR(this.ifClauseAlts);
  };
  private readonly endif = (): IToken => this.CONSUME(T.Endif);

  public ifStmt = this.RULE('ifStmt', () => {
    const opener = this.CONSUME(T.If);
    this.SUBRULE(this.expression);
    this.CONSUME(T.Then);
    this.enterBlock(T.If);
    try {
      this.SUBRULE(this.block);
      this.MANY(this.ifClause);
      const end = this.OPTION(this.endif);
      if (!this.RECORDING_PHASE && end === undefined) {
        this.unclosed(`expected "endif" to close the "if" opened at ${where(opener)}`);
      }
    } finally {
      this.leaveBlock(T.If);
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

  private readonly endwhile = (): IToken => this.CONSUME(T.Endwhile);

  public whileStmt = this.RULE('whileStmt', () => {
    const opener = this.CONSUME(T.While);
    this.SUBRULE(this.expression);
    this.enterBlock(T.While);
    try {
      this.SUBRULE(this.block);
      const end = this.OPTION(this.endwhile);
      if (!this.RECORDING_PHASE && end === undefined) {
        this.unclosed(`expected "endwhile" to close the while loop opened at ${where(opener)}`);
      }
    } finally {
      this.leaveBlock(T.While);
    }
  });

  private readonly forStep = (): void => {
    this.CONSUME(T.Step);
    this.SUBRULE3(this.expression, { LABEL: 'step' });
  };
  private readonly endfor = (): IToken => this.CONSUME(T.Endfor);

  public forStmt = this.RULE('forStmt', () => {
    const opener = this.CONSUME(T.For);
    this.CONSUME(T.Identifier);
    this.CONSUME(T.Equals);
    this.SUBRULE(this.expression, { LABEL: 'from' });
    this.CONSUME(T.To);
    this.SUBRULE2(this.expression, { LABEL: 'to' });
    this.OPTION(this.forStep);
    this.enterBlock(T.For);
    try {
      this.SUBRULE(this.block);
      const end = this.OPTION2(this.endfor);
      if (!this.RECORDING_PHASE && end === undefined) {
        this.unclosed(`expected "endfor" to close the for loop opened at ${where(opener)}`);
      }
    } finally {
      this.leaveBlock(T.For);
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
    const prefix = (): void => {
      this.or(i, prefixAlts);
    };
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
    const index = (): void => {
      this.subrule(i, this.indexSuffix);
    };
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

  private enterBlock(opener: TokenType): void {
    if (!this.RECORDING_PHASE) this.opened[ownerOf[opener.tokenTypeIdx!]!]!++;
  }

  private leaveBlock(opener: TokenType): void {
    if (!this.RECORDING_PHASE) this.opened[ownerOf[opener.tokenTypeIdx!]!]!--;
  }

  /** Whether a block that closing keyword `t` closes (or continues) is open. */
  private owned(t: IToken): boolean {
    return this.opened[ownerOf[t.tokenTypeIdx]!]! > 0;
  }

  private blockGoesOn(): boolean {
    const t = this.LA(1);
    const role = tokenRole[t.tokenTypeIdx];
    if (role === PLAIN) return true;
    if (role === ENDER) return false;
    return !this.owned(t);
  }

  private objectBodyGoesOn(): boolean {
    const t = this.LA(1);
    if (tokenRole[t.tokenTypeIdx] === ENDER) return t.tokenType === T.On;
    return closesObject[t.tokenTypeIdx] === 0;
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

// One parser for the whole process, built on first use: building it runs the grammar
// analysis, and a script without mistakes is read by direct.ts alone.
let carefulParser: PocketwatchParser | null = null;

function careful(): PocketwatchParser {
  return (carefulParser ??= new PocketwatchParser());
}

/** Builds a throw-away parser with chevrotain's grammar checks on; throws if it fails. */
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

/**
 * The first token that opens more than MAX_NESTING levels of blocks and brackets
 * together, or continues a run of more than MAX_NESTING `not`/`-` in a row. Counting
 * starts from `nesting`, which is left where the tokens end.
 * Brackets never outlive a statement (the parser recovers at its end), so their count
 * restarts at each separator; unclosed blocks keep counting, as they do nest.
 */
function tooDeep(tokens: IToken[], nesting: Nesting): Problem | null {
  let blocks = nesting.blocks;
  let brackets = nesting.brackets;
  let run = nesting.run;
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
    if (blocks + brackets > nesting.most) {
      nesting.most = blocks + brackets;
      nesting.deepest = t;
    }
  }
  nesting.blocks = blocks;
  nesting.brackets = brackets;
  nesting.run = run;
  return null;
}

/** Where tooDeep stands after some tokens, so that it can go on with the next ones. */
interface Nesting {
  blocks: number;
  brackets: number;
  run: number;
  /** the token where blocks and brackets nest deepest, and how deep */
  deepest: IToken | null;
  most: number;
}

/** The host's stack ran out (only nesting can do that in the parser or the compiler); any other RangeError is a fault. */
export function isStackOverflow(e: unknown): boolean {
  return e instanceof RangeError && /call stack/i.test(e.message);
}

function parseTokens(source: string, file: string, repl: boolean): RawParse {
  const { tokens, problems: lexProblems } = lex(source);
  const problems: Problem[] = lexProblems.slice();
  const nesting: Nesting = { blocks: 0, brackets: 0, run: 0, deepest: null, most: 0 };
  const deep = tooDeep(tokens, nesting);
  if (deep !== null) {
    problems.push(deep);
    return { items: [], tokens, problems };
  }
  return carefulParse(tokens, source, file, repl, problems, nesting.deepest);
}

/** The grammar as chevrotain records it, for the railroad diagrams. */
export function serializedGrammar(): ReturnType<PocketwatchParser['getSerializedGastProductions']> {
  return careful().getSerializedGastProductions();
}

/** `deepest`: where the script nests deepest, named if even the careful parser runs out of stack. */
function carefulParse(read: IToken[], source: string, file: string, repl: boolean, problems: Problem[], deepest: IToken | null): RawParse {
  const tokens = mendHabits(read, source, problems);
  const end = endOf(tokens, source);
  const items: (TopItem | Stmt)[] = [];
  const builder = new AstBuilder({ file, problems, endPos: end.pos, endOffset: end.offset }, repl);
  const parser = careful();
  parser.input = tokens;
  parser.endPos = end.pos;
  parser.endOffset = end.offset;
  parser.onTopItem = (item) => builder.topItem(item, items);
  try {
    const rest = parser.file() as unknown as CstNode;
    // items that error recovery attached without finishing their rule (building them recurses too)
    for (const item of rest.children.topItem ?? []) builder.topItem(item as CstNode, items);
  } catch (e) {
    // Only a stack overflow can get here, from nesting the guard above let through.
    if (!isStackOverflow(e)) throw e;
    const message = 'this script is nested too deeply to read: split the deepest blocks or brackets (here) into smaller handlers';
    problems.push(deepest !== null ? atToken(deepest, message) : { offset: 0, line: 1, col: 1, length: 1, message });
    parser.input = [];
    return { items: [], tokens, problems };
  } finally {
    parser.onTopItem = null;
  }
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
  parser.input = [];
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

// ---- where the items of a big file start
//
// The language server parses a big file in chunks that start at lines beginning a
// top-level item (src/lsp/chunks.ts), so that an edit reparses only its chunk.

// The first word of a line that may start an item or changes where the line stands:
// the words that open and close top-level blocks, and "global".
const ITEM_WORDS = [T.Global, ...BLOCKS.filter((b) => b.level !== 'statement').flatMap((b) => [b.opener, b.closer])];
const wordOf = (t: TokenType): string => (t.PATTERN as RegExp).source;
const FIRST_WORD = new RegExp(
  `(${ITEM_WORDS.map(wordOf)
    .sort((a, b) => b.length - a.length)
    .join('|')})(?![A-Za-z0-9_])`,
  'iy',
);
/** The first letters of those words, in either case. */
const itemWordStart = new Uint8Array(128);
for (const t of ITEM_WORDS) {
  itemWordStart[wordOf(t).charCodeAt(0)] = 1;
  itemWordStart[wordOf(t).toUpperCase().charCodeAt(0)] = 1;
}
const SPACE = 32;
const TAB = 9;

/**
 * Where batches of at least `size` characters can start: pairs of (offset, line breaks
 * before it). A batch starts at a line whose first word is "on", "set", "actor", "prop"
 * or "flat" outside any object block, or "global" outside objects and handlers too.
 * Only the first words of lines are looked at, so a line like `on a; end` can leave
 * this reckoning wrong: a caller must check that what it cut parses as the whole file.
 */
export function batchStarts(source: string, size: number): number[] {
  const starts: number[] = [];
  let from = 0;
  let line = 0;
  let objects = 0;
  let inHandler = false;
  const lines = T.lineStarts(source);
  for (; line < lines.length; line++) {
    const i = lines[line];
    let j = i;
    let c = source.charCodeAt(j);
    while (c === SPACE || c === TAB) c = source.charCodeAt(++j);
    if (itemWordStart[c] === 1) {
      FIRST_WORD.lastIndex = j;
      const m = FIRST_WORD.exec(source);
      if (m !== null) {
        const type = T.keywordFor(m[1]!)!;
        const block = blockOf[type.tokenTypeIdx!];
        const opens = block !== undefined && type === block.opener;
        let startsItem = false;
        if (block === undefined) {
          startsItem = objects === 0 && !inHandler;
        } else if (block.level === 'handler') {
          startsItem = opens && objects === 0;
          inHandler = opens;
        } else if (opens) {
          startsItem = objects === 0;
          objects++;
          inHandler = false;
        } else {
          objects = Math.max(0, objects - 1);
          inHandler = false;
        }
        if (startsItem && i - from >= size) {
          starts.push(i, line);
          from = i;
        }
      }
    }
  }
  return starts;
}

/**
 * Parses a whole script file. Never throws; every syntax error is in `errors`.
 * `lazyBodies`: handler bodies may be read again from the source whenever asked for (and
 * are then equal, not the same arrays), for a caller that only compiles the AST.
 */
export function parseFile(source: string, file: string, options: { lazyBodies?: boolean } = {}): ParseResult {
  const items = readDirect(source, false, options.lazyBodies === true);
  if (items !== null) return { ast: { file, source, items: items as TopItem[] }, errors: [] };
  return parseFileCarefully(source, file);
}

/**
 * Parses a whole script with the careful pass alone, the way a script the direct reader
 * gives up on is read. Tests use it too: on a script without errors, both readers must
 * build the same AST.
 */
export function parseFileCarefully(source: string, file: string): ParseResult {
  return finished(parseTokens(source, file, false), source, file);
}

function finished(raw: RawParse, source: string, file: string): ParseResult {
  return {
    ast: { file, source, items: raw.items as TopItem[] },
    errors: settle(raw.problems, raw.tokens, file),
  };
}

/** REPL input, parsed. */
export interface ReplParse {
  items: (TopItem | Stmt)[];
  errors: SyntaxProblem[];
  /**
   * The input opens a block (on, set…, if, while, for) whose closing keyword has not
   * been typed yet and nothing else is wrong, so the REPL should read more lines.
   */
  incomplete: boolean;
}

/** Parses REPL input: top-level items and statements, in the order typed. */
export function parseRepl(source: string, file: string): ReplParse {
  const items = readDirect(source, true);
  if (items !== null) return { items, errors: [], incomplete: false };
  return parseReplCarefully(source, file);
}

function replParse(raw: RawParse, file: string): ReplParse {
  return {
    items: raw.items,
    errors: settle(raw.problems, raw.tokens, file),
    incomplete: raw.problems.length > 0 && raw.problems.every((p) => p.unclosedAtEnd === true),
  };
}

/** parseRepl by the careful pass alone (see parseFileCarefully). */
export function parseReplCarefully(source: string, file: string): ReplParse {
  return replParse(parseTokens(source, file, true), file);
}

/** Whether REPL input should wait for more lines (see ReplParse.incomplete). */
export function isIncomplete(source: string): boolean {
  return parseRepl(source, '<repl>').incomplete;
}
