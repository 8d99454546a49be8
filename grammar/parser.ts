// The chevrotain grammar of the scripting language and the public parse functions.
// Statements end at a newline or ";". Blocks close with their own keyword; when one is
// missing, the block stops at the closer of an enclosing construct (or a top-level
// keyword, or the end of the file) and the parser says which opener is unclosed.
import { CstParser, EmbeddedActionsParser, EOF, tokenMatcher } from 'chevrotain';
import type { CstNode, IToken, TokenType } from 'chevrotain';
import type { Expr, Handler, IfStmt, IndexExpr, ObjectBlock, Param, ParseResult, Pos, PropertyDecl, Stmt, SyntaxProblem, TopItem } from './ast.ts';
import * as T from './lexer.ts';
import { lex } from './lexer.ts';
import { junkMessage, parserMessages, strayCloserMessage, type Problem } from './messages.ts';
export type { Problem } from './messages.ts';
import { ENDER, PLAIN, maxIdx, tokenRole } from './roles.ts';
import { readDirect } from './direct.ts';
import { mendHabits } from './habits.ts';
import { AstBuilder, GIVE_UP, expressionStatement, objectKind, readFlat, takeFrom } from './build-ast.ts';
import type { FlatTail } from './build-ast.ts';

const objectCloserFor = new Map<TokenType, TokenType>([
  [T.SetKw, T.Endset],
  [T.Actor, T.Endactor],
  [T.Prop, T.Endprop],
  [T.Flat, T.Endflat],
]);

// Every script is read by direct.ts first, which follows this grammar by hand and builds
// the same AST for a script without mistakes. When it gives up, the quick pass reads the
// script: no error recovery, and the grammar's actions build the AST as they go. At the
// first problem of any kind the quick pass gives up too and the careful pass reads the
// script again: error recovery on, a concrete syntax tree, and build-ast.ts to turn it
// into AST and word the mistakes only visible there. Both passes run the one grammar
// below; only the careful pass ever reports anything, so every message comes from one
// place. Both parsers are built on first use: most runs never need them, and building a
// parser costs start-up time.
//
// A script the careful pass reads without errors takes the same path through the
// grammar in the quick pass (recovery only acts after a mismatch), so the two agree.

type ParserBase = typeof EmbeddedActionsParser;

/** Stands in for a value in the careful pass and while chevrotain records the grammar. */
const notBuilt = undefined as never;

/** Arguments of an expression parsed as a whole statement (assignments are found there). */
const AS_STATEMENT: [boolean] = [true];

function defineParser(Base: ParserBase) {
  return class PocketwatchParser extends Base {
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

    // ---- the quick pass's state. The actions run only when `building` is set: in the
    // quick parser, never while chevrotain records the grammar.
    private building = false;
    /** top-level items read so far */
    items: (TopItem | Stmt)[] = [];
    /** statements may stand at top level (REPL input) */
    private repl = false;
    private b = new AstBuilder({ file: '', problems: [], endPos: this.endPos, endOffset: 0 }, false, true);
    // Where the actions collect what a rule is building. Rules that nest save the outer
    // collector and put it back, so inner rules cannot disturb it. Statements and
    // arguments go on shared stacks: each rule takes its own from where it started and
    // copies them out at the exact length. An array grown by pushing keeps room for
    // more, and AST arrays live as long as the program.
    private stmts: Stmt[] = [];
    private object: ObjectBlock | null = null;
    private ifNode: IfStmt | null = null;
    private args: Expr[] = [];
    private tail: FlatTail | null = null;
    // What the operand just read leaves for the expression around it.
    private prefixes: IToken[] | null = null;
    private suffixed: Expr | null = null;
    private plainName: Expr | null = null;
    private nameOperand = false;

    /**
     * @param quick the quick pass (no recovery, AST built by the actions) rather than
     *   the careful one
     * @param validate run chevrotain's grammar checks (ambiguities, left recursion…).
     *   They cost start-up time, so the shared parsers skip them and a test runs them.
     */
    constructor(quick: boolean, validate = false) {
      super(T.allTokens, {
        recoveryEnabled: !quick,
        // The grammar is LL(1); a smaller lookahead also makes start-up analysis cheaper.
        maxLookahead: 1,
        skipValidations: !validate,
        errorMessageProvider: parserMessages,
      });
      this.performSelfAnalysis();
      this.building = quick;
    }

    override reset(): void {
      super.reset();
      this.openIfs = this.openWhiles = this.openFors = this.openHandlers = this.openObjects = 0;
      this.problems = [];
    }

    /** Lets go of the last input and what was built from it, which can be large. */
    end(): void {
      this.begin([], false);
    }

    /** Prepares the quick pass over `tokens`. */
    begin(tokens: IToken[], repl: boolean): void {
      this.input = tokens;
      this.repl = repl;
      this.items = [];
      this.b = new AstBuilder({ file: '', problems: [], endPos: this.endPos, endOffset: 0 }, repl, true);
      this.stmts.length = 0;
      this.object = null;
      this.ifNode = null;
      this.args.length = 0;
      this.tail = null;
    }

    // Speed: alternatives, repetition bodies and options used by frequently called rules
    // are built once here. Building them inline would allocate fresh closures and arrays
    // on every rule call, which was most of the parser's garbage. Semantic code checks
    // RECORDING_PHASE (chevrotain's grammar-recording pass) or `building` instead of
    // wrapping in ACTION for the same reason.

    private readonly consumeSep = (): IToken => this.CONSUME(T.Sep);

    private readonly fileAlts = [
      { ALT: this.consumeSep },
      {
        ALT: (): void => {
          const item = this.SUBRULE(this.topItem);
          if (this.building) this.items.push(item);
          else if (!this.RECORDING_PHASE && this.onTopItem !== null) this.handOver(item as unknown as CstNode);
        },
      },
    ];

    /** Receives each top-level item as soon as it is parsed (careful pass). */
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

    // In the quick pass, anything the AST step would report makes it give up.
    private readonly topItemAlts = [
      { ALT: (): TopItem | Stmt => this.SUBRULE(this.objectBlock) },
      { ALT: (): TopItem | Stmt => this.SUBRULE(this.handler) },
      {
        ALT: (): TopItem | Stmt => {
          this.SUBRULE(this.propertyDecl);
          if (this.building) throw GIVE_UP;
          return notBuilt;
        },
      },
      {
        ALT: (): TopItem | Stmt => {
          const s = this.SUBRULE(this.statement);
          if (this.building && !this.repl && s.type !== 'global') throw GIVE_UP;
          return s;
        },
      },
      { ALT: (): TopItem | Stmt => this.SUBRULE(this.strayCloser) },
      { ALT: (): TopItem | Stmt => this.SUBRULE(this.junk) },
    ];

    // One node per item keeps top-level items in source order in the CST.
    public topItem = this.RULE('topItem', (): TopItem | Stmt => this.OR(this.topItemAlts));

    private readonly objectBodyAlts = [
      { ALT: this.consumeSep },
      {
        ALT: (): void => {
          const h = this.SUBRULE(this.handler);
          if (this.building) this.object!.handlers.push(h);
        },
      },
      {
        ALT: (): void => {
          const p = this.SUBRULE(this.propertyDecl);
          if (this.building) this.object!.properties.push(p);
        },
      },
      {
        ALT: (): void => {
          this.SUBRULE(this.statement);
          if (this.building) throw GIVE_UP;
        },
      },
      { ALT: () => this.SUBRULE(this.strayCloser) },
      { ALT: () => this.SUBRULE(this.junk) },
    ];
    private readonly objectBodyLoop = {
      GATE: () => this.objectBodyGoesOn(),
      DEF: () => this.OR(this.objectBodyAlts),
    };
    private readonly objectCloser = (): IToken => this.CONSUME(T.ObjectCloser);

    public objectBlock = this.RULE('objectBlock', (): ObjectBlock => {
      const opener = this.CONSUME(T.ObjectOpener);
      const name = this.CONSUME(T.Identifier);
      let node: ObjectBlock | null = null;
      if (this.building) {
        const id = this.b.name(name);
        node = {
          type: 'object',
          kind: objectKind(opener.tokenType),
          name: id.name,
          spelled: id.spelled,
          pos: this.b.pos(opener),
          properties: [],
          handlers: [],
          endPos: this.endPos,
        };
        // objects do not nest, so there is nothing to put back afterwards
        this.object = node;
      }
      if (!this.RECORDING_PHASE) this.openObjects++;
      try {
        this.MANY(this.objectBodyLoop);
        const closer = this.OPTION(this.objectCloser);
        if (!this.RECORDING_PHASE) {
          const kind = opener.image.toLowerCase();
          const want = objectCloserFor.get(opener.tokenType) ?? T.Endset;
          const what = `the ${kind} "${name.image}" opened at ${where(opener)}`;
          if (closer === undefined) {
            this.unclosed(`expected ${want.LABEL} to close ${what}`);
          } else if (closer.tokenType !== want) {
            this.report(closer, `expected ${want.LABEL} to close ${what}, not "${closer.image}"`);
          } else if (node !== null) {
            node.endPos = this.b.pos(closer);
          }
        }
      } finally {
        if (!this.RECORDING_PHASE) this.openObjects--;
      }
      return node ?? notBuilt;
    });

    private readonly propertyInit = (): Expr => {
      this.CONSUME(T.Equals);
      return this.SUBRULE(this.expression);
    };

    public propertyDecl = this.RULE('propertyDecl', (): PropertyDecl => {
      const first = this.CONSUME(T.Property);
      const name = this.CONSUME(T.Identifier);
      const init = this.OPTION(this.propertyInit);
      if (this.OPTION2(this.consumeSep) === undefined) this.endStatement(first);
      if (!this.building) return notBuilt;
      const id = this.b.name(name);
      return { type: 'property', name: id.name, spelled: id.spelled, init: init ?? null, pos: this.b.pos(first) };
    });

    private readonly noLoopCheck = (): IToken => this.CONSUME(T.Noloopcheck);
    private readonly handlerParams = (): Param[] => this.SUBRULE(this.params);
    private readonly handlerEnd = (): IToken => this.CONSUME(T.End);

    public handler = this.RULE('handler', (): Handler => {
      const on = this.CONSUME(T.On);
      const noLoopCheck = this.OPTION(this.noLoopCheck);
      const name = this.CONSUME(T.Identifier);
      const params = this.OPTION2(this.handlerParams);
      if (!this.RECORDING_PHASE) this.openHandlers++;
      let body: Stmt[];
      let end: IToken | undefined;
      try {
        body = this.SUBRULE(this.block);
        end = this.OPTION3(this.handlerEnd);
        if (!this.RECORDING_PHASE && end === undefined) {
          this.unclosed(`expected "end" to close the handler "${name.image}" opened at ${where(on)}`);
        }
      } finally {
        if (!this.RECORDING_PHASE) this.openHandlers--;
      }
      if (!this.building) return notBuilt;
      const pos = this.b.pos(on);
      const id = this.b.name(name);
      return {
        type: 'handler',
        name: id.name,
        spelled: id.spelled,
        params: params ?? [],
        body,
        pos,
        namePos: id.pos,
        ...(end !== undefined ? { endPos: this.b.pos(end) } : {}),
        noLoopCheck: noLoopCheck !== undefined,
      };
    });

    public params = this.RULE('params', (): Param[] => {
      const out: Param[] = [];
      this.CONSUME(T.LParen);
      this.OPTION(() => {
        const first = this.CONSUME(T.Identifier);
        if (this.building) out.push(this.b.name(first));
        this.MANY(() => {
          this.CONSUME(T.Comma);
          const next = this.CONSUME2(T.Identifier);
          if (this.building) out.push(this.b.name(next));
        });
      });
      this.CONSUME(T.RParen);
      return out;
    });

    private readonly blockAlts = [
      { ALT: this.consumeSep },
      {
        ALT: (): void => {
          const s = this.SUBRULE(this.statement);
          if (this.building) this.stmts.push(s);
        },
      },
      {
        ALT: (): void => {
          this.SUBRULE(this.propertyDecl);
          if (this.building) throw GIVE_UP;
        },
      },
      { ALT: () => this.SUBRULE(this.strayCloser) },
      { ALT: () => this.SUBRULE(this.junk) },
    ];
    private readonly blockLoop = {
      GATE: () => this.blockGoesOn(),
      DEF: () => this.OR(this.blockAlts),
    };

    // Statements of a handler, loop or branch. Property declarations, stray closers and
    // junk are accepted here only to report them and carry on.
    public block = this.RULE('block', (): Stmt[] => {
      const from = this.stmts.length;
      this.MANY(this.blockLoop);
      return takeFrom(this.stmts, from);
    });

    private readonly statementAlts = [
      { ALT: (): Stmt => this.SUBRULE(this.ifStmt) },
      { ALT: (): Stmt => this.SUBRULE(this.whileStmt) },
      { ALT: (): Stmt => this.SUBRULE(this.forStmt) },
      {
        ALT: (): Stmt => {
          const t = this.CONSUME(T.Break);
          return this.building ? { type: 'break', pos: this.b.pos(t) } : notBuilt;
        },
      },
      {
        ALT: (): Stmt => {
          const t = this.CONSUME(T.Continue);
          return this.building ? { type: 'continue', pos: this.b.pos(t) } : notBuilt;
        },
      },
      { ALT: (): Stmt => this.SUBRULE(this.returnStmt) },
      { ALT: (): Stmt => this.SUBRULE(this.globalDecl) },
      // Assignments are expressions whose first operator is "=" (see build-ast.ts).
      { ALT: (): Stmt => this.SUBRULE(this.expression, { ARGS: AS_STATEMENT }) as unknown as Stmt },
    ];

    public statement = this.RULE('statement', (): Stmt => {
      const first = this.RECORDING_PHASE ? undefined : this.LA(1);
      const s = this.OR(this.statementAlts);
      if (this.OPTION(this.consumeSep) === undefined) this.endStatement(first);
      return s;
    });

    private readonly ifClauseAlts = [
      { ALT: (): IfStmt['branches'][number] | Stmt[] => this.SUBRULE(this.elseifClause) },
      { ALT: (): IfStmt['branches'][number] | Stmt[] => this.SUBRULE(this.elseClause) },
    ];
    // In the quick pass a second "else", or an "elseif" after one, is a problem: give up.
    private readonly ifClause = (): void => {
      const clause = this.OR(this.ifClauseAlts);
      if (!this.building) return;
      const node = this.ifNode!;
      if (node.elseBody !== null) throw GIVE_UP;
      if (Array.isArray(clause)) node.elseBody = clause;
      else node.branches.push(clause);
    };
    private readonly endif = (): IToken => this.CONSUME(T.Endif);

    public ifStmt = this.RULE('ifStmt', (): IfStmt => {
      const opener = this.CONSUME(T.If);
      const cond = this.SUBRULE(this.expression);
      this.CONSUME(T.Then);
      if (!this.RECORDING_PHASE) this.openIfs++;
      let node: IfStmt | null = null;
      try {
        const body = this.SUBRULE(this.block);
        const outer = this.ifNode;
        if (this.building) {
          const pos = this.b.pos(opener);
          node = { type: 'if', branches: [{ cond, body, pos }], elseBody: null, pos };
          this.ifNode = node;
        }
        // elseif after else is accepted here and reported by the AST step, in words.
        this.MANY(this.ifClause);
        this.ifNode = outer;
        const end = this.OPTION(this.endif);
        if (!this.RECORDING_PHASE && end === undefined) {
          this.unclosed(`expected "endif" to close the "if" opened at ${where(opener)}`);
        }
      } finally {
        if (!this.RECORDING_PHASE) this.openIfs--;
      }
      return node ?? notBuilt;
    });

    public elseifClause = this.RULE('elseifClause', (): IfStmt['branches'][number] => {
      const t = this.CONSUME(T.Elseif);
      const cond = this.SUBRULE(this.expression);
      this.CONSUME(T.Then);
      const body = this.SUBRULE(this.block);
      return this.building ? { cond, body, pos: this.b.pos(t) } : notBuilt;
    });

    public elseClause = this.RULE('elseClause', (): Stmt[] => {
      this.CONSUME(T.Else);
      return this.SUBRULE(this.block);
    });

    private readonly endwhile = (): IToken => this.CONSUME(T.Endwhile);

    public whileStmt = this.RULE('whileStmt', (): Stmt => {
      const opener = this.CONSUME(T.While);
      const cond = this.SUBRULE(this.expression);
      if (!this.RECORDING_PHASE) this.openWhiles++;
      let body: Stmt[];
      try {
        body = this.SUBRULE(this.block);
        const end = this.OPTION(this.endwhile);
        if (!this.RECORDING_PHASE && end === undefined) {
          this.unclosed(`expected "endwhile" to close the while loop opened at ${where(opener)}`);
        }
      } finally {
        if (!this.RECORDING_PHASE) this.openWhiles--;
      }
      return this.building ? { type: 'while', cond, body, pos: this.b.pos(opener) } : notBuilt;
    });

    private readonly forStep = (): Expr => {
      this.CONSUME(T.Step);
      return this.SUBRULE3(this.expression, { LABEL: 'step' });
    };
    private readonly endfor = (): IToken => this.CONSUME(T.Endfor);

    public forStmt = this.RULE('forStmt', (): Stmt => {
      const opener = this.CONSUME(T.For);
      const name = this.CONSUME(T.Identifier);
      this.CONSUME(T.Equals);
      const from = this.SUBRULE(this.expression, { LABEL: 'from' });
      this.CONSUME(T.To);
      const to = this.SUBRULE2(this.expression, { LABEL: 'to' });
      const step = this.OPTION(this.forStep);
      if (!this.RECORDING_PHASE) this.openFors++;
      let body: Stmt[];
      try {
        body = this.SUBRULE(this.block);
        const end = this.OPTION2(this.endfor);
        if (!this.RECORDING_PHASE && end === undefined) {
          this.unclosed(`expected "endfor" to close the for loop opened at ${where(opener)}`);
        }
      } finally {
        if (!this.RECORDING_PHASE) this.openFors--;
      }
      if (!this.building) return notBuilt;
      const pos = this.b.pos(opener);
      return { type: 'for', var: this.b.name(name), from, to, step: step ?? null, body, pos };
    });

    private readonly returnValue = (): Expr => this.SUBRULE(this.expression);

    public returnStmt = this.RULE('returnStmt', (): Stmt => {
      const t = this.CONSUME(T.Return);
      const value = this.OPTION(this.returnValue);
      return this.building ? { type: 'return', value: value ?? null, pos: this.b.pos(t) } : notBuilt;
    });

    public globalDecl = this.RULE('globalDecl', (): Stmt => {
      const t = this.CONSUME(T.Global);
      const first = this.CONSUME(T.Identifier);
      const names: Param[] = [];
      if (this.building) names.push(this.b.name(first));
      this.MANY(() => {
        this.CONSUME(T.Comma);
        const next = this.CONSUME2(T.Identifier);
        if (this.building) names.push(this.b.name(next));
      });
      return this.building ? { type: 'global', names, pos: this.b.pos(t) } : notBuilt;
    });

    public strayCloser = this.RULE('strayCloser', (): never => {
      const t = this.CONSUME(T.Closer);
      if (!this.RECORDING_PHASE) this.report(t, strayCloserMessage(t));
      return notBuilt;
    });

    public junk = this.RULE('junk', (): never => {
      const t = this.CONSUME(T.Junk);
      if (!this.RECORDING_PHASE) this.report(t, junkMessage(t));
      return notBuilt;
    });

    // An operand: prefix operators, a literal / name / call / group, then indexes. It is
    // inlined into `expression` rather than a rule of its own because rule calls are
    // the parser's main cost; build-ast.ts splits the children back into operands by
    // their position between the operator tokens. `i` is the DSL occurrence index:
    // 1 for the first operand, 2 for the ones after operators.
    //
    // In the quick pass the operand returns its AST (indexes applied) and leaves its
    // prefix operators in `prefixes`, and in `nameOperand` whether it is a plain name,
    // perhaps indexed: the only thing an assignment can assign to.
    private operandParts(i: number): () => Expr {
      const prefixAlts = [{ ALT: () => this.consume(i, T.Not) }, { ALT: () => this.consume(i, T.Minus) }];
      const prefix = (): void => {
        const t = this.or(i, prefixAlts);
        if (this.building) (this.prefixes ??= []).push(t);
      };
      const call = (): Expr[] => this.subrule(i, this.callArgs);
      const atomAlts = [
        {
          ALT: (): Expr => {
            const t = this.consume(i, T.NumberLit);
            return this.building ? { type: 'number', value: Number(t.image), pos: this.b.pos(t) } : notBuilt;
          },
        },
        {
          ALT: (): Expr => {
            const t = this.consume(i, T.StringLit);
            return this.building ? { type: 'string', value: typeof t.payload === 'string' ? t.payload : '', pos: this.b.pos(t) } : notBuilt;
          },
        },
        {
          ALT: (): Expr => {
            const t = this.consume(i, T.Identifier);
            const args = this.option(i, call);
            if (!this.building) return notBuilt;
            const spelled = t.image;
            const name = spelled.toLowerCase();
            const pos = this.b.pos(t);
            if (args !== undefined) {
              this.plainName = null;
              return { type: 'call', name, spelled, args, pos };
            }
            const e: Expr = { type: 'name', name, spelled, pos };
            this.plainName = e;
            return e;
          },
        },
        {
          ALT: (): Expr => {
            const t = this.consume(i, T.True);
            return this.building ? { type: 'bool', value: true, pos: this.b.pos(t) } : notBuilt;
          },
        },
        {
          ALT: (): Expr => {
            const t = this.consume(i, T.False);
            return this.building ? { type: 'bool', value: false, pos: this.b.pos(t) } : notBuilt;
          },
        },
        {
          ALT: (): Expr => {
            const t = this.consume(i, T.Void);
            return this.building ? { type: 'void', pos: this.b.pos(t) } : notBuilt;
          },
        },
        {
          ALT: (): Expr => {
            const t = this.consume(i, T.Self);
            return this.building ? { type: 'self', pos: this.b.pos(t) } : notBuilt;
          },
        },
        {
          ALT: (): Expr => {
            const e = this.subrule(i, this.parenExpr);
            // `(x)` is not a plain name: `(x) = 1` compares
            this.plainName = null;
            return e;
          },
        },
        { ALT: (): Expr => this.subrule(i, this.listLit) },
      ];
      const index = (): void => {
        const target = this.suffixed;
        const node = this.subrule(i, this.indexSuffix);
        if (this.building) {
          node.target = target!;
          this.suffixed = node;
        }
      };
      return () => {
        this.prefixes = null;
        this.many(i, prefix);
        const prefixes = this.prefixes;
        const atom = this.or(i + 2, atomAlts);
        const isName = atom === this.plainName && atom !== null;
        this.suffixed = atom;
        this.many(i + 2, index);
        const e = this.suffixed;
        this.prefixes = prefixes;
        this.nameOperand = isName;
        return e as Expr;
      };
    }
    private readonly firstOperand = this.operandParts(1);
    private readonly nextOperand = this.operandParts(2);
    private readonly operatorAndOperand = (): void => {
      const op = this.CONSUME(T.BinOp);
      const e = this.nextOperand();
      if (!this.building) return;
      const operand = { prefixes: this.prefixes, expr: e };
      const tail = this.tail;
      if (tail === null) this.tail = { ops: [op], operands: [operand] };
      else {
        tail.ops.push(op);
        tail.operands.push(operand);
      }
    };

    // Operators are parsed flat (operand, operator, operand, …); build-ast.ts applies
    // precedence. This keeps the tree shallow, which matters for speed, and lets the
    // chained-comparison error say exactly what is wrong.
    public expression = this.RULE('expression', (asStatement?: boolean): Expr => {
      const start = this.RECORDING_PHASE ? undefined : this.LA(1);
      const first = this.firstOperand();
      const prefixes = this.prefixes;
      const isName = this.nameOperand;
      const outer = this.tail;
      this.tail = null;
      this.MANY(this.operatorAndOperand);
      const tail = this.tail;
      this.tail = outer;
      if (!this.building) return notBuilt;
      if (asStatement !== true) {
        if (tail === null && prefixes === null) return first;
        return readFlat(this.b, first, prefixes, tail, 0);
      }
      return expressionStatement(this.b, this.b.pos(start!), first, prefixes, isName, tail) as unknown as Expr;
    });

    private readonly moreArgs = (): void => {
      this.CONSUME(T.Comma);
      const e = this.SUBRULE2(this.expression);
      if (this.building) this.args.push(e);
    };
    private readonly someArgs = (): void => {
      const e = this.SUBRULE(this.expression);
      if (this.building) this.args.push(e);
      this.MANY(this.moreArgs);
    };

    public callArgs = this.RULE('callArgs', (): Expr[] => {
      this.CONSUME(T.LParen);
      const from = this.args.length;
      this.OPTION(this.someArgs);
      this.CONSUME(T.RParen);
      return takeFrom(this.args, from);
    });

    public parenExpr = this.RULE('parenExpr', (): Expr => {
      this.CONSUME(T.LParen);
      const e = this.SUBRULE(this.expression);
      this.CONSUME(T.RParen);
      return e;
    });

    public listLit = this.RULE('listLit', (): Expr => {
      const t = this.CONSUME(T.LBracket);
      const from = this.args.length;
      this.OPTION(this.someArgs);
      this.CONSUME(T.RBracket);
      const items = takeFrom(this.args, from);
      return this.building ? { type: 'list', items, pos: this.b.pos(t) } : notBuilt;
    });

    // The target is filled in by the operand that owns the suffix.
    public indexSuffix = this.RULE('indexSuffix', (): IndexExpr => {
      const t = this.CONSUME(T.LBracket);
      const index = this.SUBRULE(this.expression);
      this.CONSUME(T.RBracket);
      return this.building ? { type: 'index', target: notBuilt, index, pos: this.b.pos(t) } : notBuilt;
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

    // The quick pass reports nothing: the careful pass will, in full.
    report(t: IToken, message: string, unclosedAtEnd = false): void {
      if (this.building) throw GIVE_UP;
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
  };
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

const QuickParser = defineParser(EmbeddedActionsParser);
const CarefulParser = defineParser(CstParser as unknown as ParserBase);

// One parser of each kind for the whole process, built on first use: building one runs
// the grammar analysis, and a script without mistakes is read by direct.ts alone.
let quickParser: InstanceType<typeof QuickParser> | null = null;

let carefulParser: InstanceType<typeof CarefulParser> | null = null;

function careful(): InstanceType<typeof CarefulParser> {
  return (carefulParser ??= new CarefulParser(false));
}

/** Builds throw-away parsers with chevrotain's grammar checks on; throws if any fails. */
export function validateGrammar(): void {
  new QuickParser(true, true);
  new CarefulParser(false, true);
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
 * together, or continues a run of more than MAX_NESTING `not`/`-` in a row. Counting
 * starts from `nesting`, which is left where the tokens end.
 * Brackets never outlive a statement (the parser recovers at its end), so their count
 * restarts at each separator; unclosed blocks keep counting, as they do nest.
 */
function tooDeep(tokens: IToken[], nesting: Nesting = { blocks: 0, brackets: 0, run: 0, deepest: null, most: 0 }): Problem | null {
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

function parseTokens(source: string, file: string, repl: boolean, quick = true): RawParse {
  const { tokens, problems: lexProblems } = lex(source);
  const problems: Problem[] = lexProblems.slice();
  const nesting: Nesting = { blocks: 0, brackets: 0, run: 0, deepest: null, most: 0 };
  const deep = tooDeep(tokens, nesting);
  if (deep !== null) {
    problems.push(deep);
    return { items: [], tokens, problems };
  }
  if (quick && problems.length === 0) {
    const items = quickParse(tokens, repl);
    if (items !== null) return { items, tokens, problems };
  }
  return carefulParse(tokens, source, file, repl, problems, nesting.deepest);
}

/** The AST of a script without problems, or null if it has any (or nests too deeply). */
function quick(): InstanceType<typeof QuickParser> {
  return (quickParser ??= new QuickParser(true));
}

/** The grammar as chevrotain records it, for the railroad diagrams. */
export function serializedGrammar(): ReturnType<InstanceType<typeof QuickParser>['getSerializedGastProductions']> {
  return quick().getSerializedGastProductions();
}

function quickParse(tokens: IToken[], repl: boolean): (TopItem | Stmt)[] | null {
  const parser = quick();
  parser.begin(tokens, repl);
  let clean = false;
  try {
    parser.file();
    clean = parser.errors.length === 0;
  } catch (e) {
    if (e !== GIVE_UP && !isStackOverflow(e)) throw e;
  }
  const items = parser.items;
  parser.end();
  return clean ? items : null;
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

// ---- big files in batches
//
// The tokens of a whole file, token objects some fourteen times the size of the
// source, would all stay alive until the quick pass is done, so the garbage collector
// would copy and promote them again and again. A big file is therefore lexed and
// quick-parsed a batch at a time, each batch's tokens dying young. Batches start at lines that begin a
// top-level item, which is where the whole-file parse is back at the top level with
// nothing open. Any problem at all sends the file down the ordinary path, so every
// message comes from the whole file, exactly as for a small one.

/** A batch runs on to the first item that starts at least this many characters in. */
const BATCH_CHARS = 32 * 1024;

// The first word of a line that may start a batch or changes where the line stands.
const FIRST_WORD = /(on|global|set|actor|prop|flat|endset|endactor|endprop|endflat|end)(?![A-Za-z0-9_])/iy;
const SPACE = 32;
const TAB = 9;

/**
 * Where batches of at least `size` characters can start: pairs of (offset, line breaks
 * before it). A batch starts at a line whose first word is "on", "set", "actor", "prop"
 * or "flat" outside any object block, or "global" outside objects and handlers too.
 * Only the first words of lines are looked at, so a line like `on a; end` can leave
 * this reckoning wrong; a batch cut in the middle of something fails to parse, and the
 * file then takes the ordinary path.
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
    // every word of interest starts with one of these letters, in either case
    const lower = c | 0x20;
    if (lower === 0x6f || lower === 0x67 || lower === 0x73 || lower === 0x61 || lower === 0x70 || lower === 0x66 || lower === 0x65) {
      FIRST_WORD.lastIndex = j;
      const m = FIRST_WORD.exec(source);
      if (m !== null) {
        const word = m[1]!.toLowerCase();
        let startsItem = false;
        if (word === 'on') {
          startsItem = objects === 0;
          inHandler = true;
        } else if (word === 'global') {
          startsItem = objects === 0 && !inHandler;
        } else if (word === 'end') {
          inHandler = false;
        } else if (word.startsWith('end')) {
          objects = Math.max(0, objects - 1);
          inHandler = false;
        } else {
          startsItem = objects === 0;
          objects++;
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
 * The quick pass over a file, a batch of about `size` characters at a time: the items
 * of a file without problems, or null if it has any. Each batch is lexed on its own and
 * its token positions moved to where it sits in the file. Line breaks, blank lines and
 * comments at a batch's edge become different tokens than in the whole file, but only
 * separators, which leave no trace in the AST.
 */
export function quickParseInBatches(source: string, size: number): TopItem[] | null {
  const starts = batchStarts(source, size);
  const items: TopItem[] = [];
  // The nesting count goes on from batch to batch as it would over the whole file
  // (a batch that parses leaves nothing open, but the count need not rely on that).
  const nesting: Nesting = { blocks: 0, brackets: 0, run: 0, deepest: null, most: 0 };
  for (let b = 0; b <= starts.length; b += 2) {
    const from = b === 0 ? 0 : starts[b - 2]!;
    const lines = b === 0 ? 0 : starts[b - 1]!;
    const to = b < starts.length ? starts[b]! : source.length;
    const { tokens, problems } = lex(from === 0 && to === source.length ? source : source.slice(from, to));
    if (problems.length > 0) return null;
    if (from > 0) {
      for (let i = 0; i < tokens.length; i++) {
        const t = tokens[i]!;
        t.startOffset += from;
        t.startLine! += lines;
      }
    }
    if (tooDeep(tokens, nesting) !== null) return null;
    const part = quickParse(tokens, false);
    if (part === null) return null;
    for (let i = 0; i < part.length; i++) items.push(part[i] as TopItem);
  }
  return items;
}

/**
 * Parses a whole script file. Never throws; every syntax error is in `errors`.
 * `lazyBodies`: handler bodies may be read again from the source whenever asked for (and
 * are then equal, not the same arrays), for a caller that only compiles the AST.
 */
export function parseFile(source: string, file: string, options: { lazyBodies?: boolean } = {}): ParseResult {
  const items = readDirect(source, false, options.lazyBodies === true);
  if (items !== null) return { ast: { file, source, items: items as TopItem[] }, errors: [] };
  return parseFileInBatches(source, file, BATCH_CHARS);
}

/**
 * parseFile by the chevrotain passes alone (what a script the direct reader gives up on
 * gets), with batches of about `size` characters for the quick pass (tests choose small
 * ones to put batch edges everywhere). A file under two batches is read whole.
 */
export function parseFileInBatches(source: string, file: string, size: number): ParseResult {
  const batched = source.length >= 2 * size;
  if (batched) {
    const items = quickParseInBatches(source, size);
    if (items !== null) return { ast: { file, source, items }, errors: [] };
    // a batch found a problem (or was cut where it should not be): the careful pass
    // reads the file whole, without a second quick pass that would fail again
  }
  return batched ? parseFileCarefully(source, file) : finished(parseTokens(source, file, false), source, file);
}

/**
 * Parses a whole script with the careful pass alone, the way a script with errors is
 * read. Tests use it too: on a script without errors, both passes must build the same AST.
 */
export function parseFileCarefully(source: string, file: string): ParseResult {
  return finished(parseTokens(source, file, false, false), source, file);
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
  return replParse(parseTokens(source, file, true), file);
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
  return replParse(parseTokens(source, file, true, false), file);
}

/** Whether REPL input should wait for more lines (see ReplParse.incomplete). */
export function isIncomplete(source: string): boolean {
  return parseRepl(source, '<repl>').incomplete;
}
