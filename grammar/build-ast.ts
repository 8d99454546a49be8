// Turns the parser's concrete syntax tree into the AST of ast.ts. A typed walk: each
// rule's children are described below, all optional because error recovery can leave
// any of them out. Also applies operator precedence to the flat operator lists and
// reports the mistakes only visible here (chained comparisons, misplaced items).
//
// This walk serves the careful pass, the one that reads a script with errors. A
// script without errors is read into AST by direct.ts; both share the precedence
// reading, the statement shapes and the positions below.
import type { CstNode, IToken, TokenType } from 'chevrotain';
import type * as A from './ast.ts';
import * as T from './lexer.ts';
import type { Problem } from './messages.ts';
import { objectKind } from './roles.ts';

export interface BuildContext {
  file: string;
  problems: Problem[];
  endPos: A.Pos;
  endOffset: number;
}

type Toks = IToken[] | undefined;
type Nodes = CstNode[] | undefined;

interface TopItemCh {
  objectBlock?: Nodes;
  handler?: Nodes;
  propertyDecl?: Nodes;
  statement?: Nodes;
}
interface ObjectBlockCh {
  ObjectOpener?: Toks;
  Identifier?: Toks;
  handler?: Nodes;
  propertyDecl?: Nodes;
  statement?: Nodes;
  ObjectCloser?: Toks;
}
interface PropertyDeclCh {
  Property?: Toks;
  Identifier?: Toks;
  expression?: Nodes;
}
interface HandlerCh {
  On?: Toks;
  Noloopcheck?: Toks;
  Identifier?: Toks;
  params?: Nodes;
  block?: Nodes;
  End?: Toks;
}
interface ParamsCh {
  Identifier?: Toks;
}
interface BlockCh {
  statement?: Nodes;
  propertyDecl?: Nodes;
}
interface StatementCh {
  ifStmt?: Nodes;
  whileStmt?: Nodes;
  forStmt?: Nodes;
  Break?: Toks;
  Continue?: Toks;
  returnStmt?: Nodes;
  globalDecl?: Nodes;
  expression?: Nodes;
}
interface IfCh {
  If?: Toks;
  expression?: Nodes;
  block?: Nodes;
  elseifClause?: Nodes;
  elseClause?: Nodes;
}
interface ElseifCh {
  Elseif?: Toks;
  expression?: Nodes;
  block?: Nodes;
}
interface ElseCh {
  Else?: Toks;
  block?: Nodes;
}
interface WhileCh {
  While?: Toks;
  expression?: Nodes;
  block?: Nodes;
}
interface ForCh {
  For?: Toks;
  Identifier?: Toks;
  from?: Nodes;
  to?: Nodes;
  step?: Nodes;
  block?: Nodes;
}
interface ReturnCh {
  Return?: Toks;
  expression?: Nodes;
}
interface GlobalCh {
  Global?: Toks;
  Identifier?: Toks;
}
// An expression's children mix all its operands; see gatherOperands.
interface ExpressionCh {
  BinOp?: Toks;
  Not?: Toks;
  Minus?: Toks;
  NumberLit?: Toks;
  StringLit?: Toks;
  Identifier?: Toks;
  True?: Toks;
  False?: Toks;
  Void?: Toks;
  Self?: Toks;
  callArgs?: Nodes;
  parenExpr?: Nodes;
  listLit?: Nodes;
  indexSuffix?: Nodes;
}
interface CallArgsCh {
  LParen?: Toks;
  expression?: Nodes;
}
interface ParenCh {
  LParen?: Toks;
  expression?: Nodes;
}
interface ListCh {
  LBracket?: Toks;
  expression?: Nodes;
}
interface IndexCh {
  LBracket?: Toks;
  expression?: Nodes;
}

function ch<C>(node: CstNode): C {
  return node.children as unknown as C;
}

// Operator precedence, loosest first; `not` takes everything from comparisons up.
const PREC_OR = 1;
const PREC_AND = 2;
const PREC_CMP = 4;
const PREC_CONCAT = 5;
const PREC_ADD = 6;
const PREC_MUL = 7;

const opInfo = new Map<TokenType, { prec: number; op: A.BinaryOp }>([
  [T.Or, { prec: PREC_OR, op: 'or' }],
  [T.Pipe, { prec: PREC_OR, op: 'or' }],
  [T.And, { prec: PREC_AND, op: 'and' }],
  [T.Amp, { prec: PREC_AND, op: 'and' }],
  [T.Equals, { prec: PREC_CMP, op: '=' }],
  [T.NotEqual, { prec: PREC_CMP, op: '<>' }],
  [T.Less, { prec: PREC_CMP, op: '<' }],
  [T.LessEq, { prec: PREC_CMP, op: '<=' }],
  [T.Greater, { prec: PREC_CMP, op: '>' }],
  [T.GreaterEq, { prec: PREC_CMP, op: '>=' }],
  [T.Concat, { prec: PREC_CONCAT, op: '..' }],
  [T.Plus, { prec: PREC_ADD, op: '+' }],
  [T.Minus, { prec: PREC_ADD, op: '-' }],
  [T.Star, { prec: PREC_MUL, op: '*' }],
  [T.Slash, { prec: PREC_MUL, op: '/' }],
  [T.Mod, { prec: PREC_MUL, op: 'mod' }],
]);
// Indexed by tokenTypeIdx so the hot loop avoids Map lookups.
const precByIdx: number[] = [];
const opByIdx: A.BinaryOp[] = [];
for (const [type, info] of opInfo) {
  precByIdx[type.tokenTypeIdx!] = info.prec;
  opByIdx[type.tokenTypeIdx!] = info.op;
}

/**
 * Thrown by a strict builder (the direct reader's) at the first problem: the input is
 * then read again by the careful pass, which words every problem.
 */
export const GIVE_UP: unknown = Object.freeze({ giveUp: true });

export class AstBuilder {
  private lastPos: A.Pos = { line: 1, col: 1 };
  private lastTok: IToken | undefined;

  /**
   * @param repl whether statements may stand at top level (REPL input) or are errors
   *   there (script files)
   * @param strict throw GIVE_UP instead of recording a problem
   */
  constructor(
    private readonly ctx: BuildContext,
    private readonly repl: boolean,
    private readonly strict = false,
  ) {}

  // ---- positions and problems

  // Nodes that start at the same token (a statement and its call) share one Pos.
  pos(t: IToken | undefined): A.Pos {
    if (t === this.lastTok) return this.lastPos;
    if (t !== undefined && t.startLine! > 0) {
      const p = { line: t.startLine!, col: t.startColumn! };
      this.lastPos = p;
      this.lastTok = t;
      return p;
    }
    return this.lastPos;
  }

  problemAt(t: IToken | undefined, message: string): void {
    if (this.strict) throw GIVE_UP;
    if (t === undefined || !(t.startOffset >= 0)) {
      const p = this.ctx.endPos;
      this.ctx.problems.push({ offset: this.ctx.endOffset, line: p.line, col: p.col, length: 1, message });
      return;
    }
    this.ctx.problems.push({
      offset: t.startOffset,
      line: t.startLine!,
      col: t.startColumn!,
      length: Math.max(1, t.image.length),
      message,
    });
  }

  name(t: IToken | undefined): { name: string; spelled: string; pos: A.Pos } {
    const spelled = t?.image ?? '';
    return { name: spelled.toLowerCase(), spelled, pos: this.pos(t) };
  }

  // ---- top level

  /** Adds what one top-level CST item stands for to `out`. */
  topItem(item: CstNode, out: (A.TopItem | A.Stmt)[]): void {
    const c = ch<TopItemCh>(item);
    if (c.objectBlock) out.push(this.objectBlock(c.objectBlock[0]!));
    else if (c.handler) out.push(this.handler(c.handler[0]!));
    else if (c.propertyDecl) {
      this.problemAt(firstToken(c.propertyDecl[0]!), '"property" declarations go inside a set, actor, prop or flat block');
    } else if (c.statement) {
      const s = this.statement(c.statement[0]!);
      if (s === null) return;
      if (this.repl || s.type === 'global') out.push(s);
      else {
        this.problemAt(firstToken(c.statement[0]!), 'this statement is outside any handler: put it inside "on NAME … end"');
      }
    }
  }

  objectBlock(node: CstNode): A.ObjectBlock {
    const c = ch<ObjectBlockCh>(node);
    const opener = c.ObjectOpener?.[0];
    const kind = opener ? objectKind(opener.tokenType) : 'set';
    const pos = this.pos(opener);
    const id = this.name(c.Identifier?.[0]);
    const properties: A.PropertyDecl[] = [];
    for (const p of c.propertyDecl ?? []) properties.push(this.propertyDecl(p));
    const handlers: A.Handler[] = [];
    for (const h of c.handler ?? []) handlers.push(this.handler(h));
    for (const s of c.statement ?? []) {
      this.problemAt(firstToken(s), `only property declarations and handlers can go inside a ${kind} block; put statements inside a handler`);
    }
    const closer = c.ObjectCloser?.[0];
    return {
      type: 'object',
      kind,
      name: id.name,
      spelled: id.spelled,
      pos,
      properties,
      handlers,
      endPos: closer ? this.pos(closer) : this.ctx.endPos,
    };
  }

  propertyDecl(node: CstNode): A.PropertyDecl {
    const c = ch<PropertyDeclCh>(node);
    const pos = this.pos(c.Property?.[0]);
    const id = this.name(c.Identifier?.[0]);
    const init = c.expression ? this.expression(c.expression[0]!) : null;
    return { type: 'property', name: id.name, spelled: id.spelled, init, pos };
  }

  handler(node: CstNode): A.Handler {
    const c = ch<HandlerCh>(node);
    const pos = this.pos(c.On?.[0]);
    const id = this.name(c.Identifier?.[0]);
    const params: A.Param[] = [];
    if (c.params) {
      for (const t of ch<ParamsCh>(c.params[0]!).Identifier ?? []) params.push(this.name(t));
    }
    return {
      type: 'handler',
      name: id.name,
      spelled: id.spelled,
      params,
      body: this.block(c.block?.[0]),
      pos,
      namePos: id.pos,
      ...(c.End?.[0] !== undefined ? { endPos: this.pos(c.End[0]) } : {}),
      noLoopCheck: c.Noloopcheck !== undefined,
    };
  }

  // ---- statements

  block(node: CstNode | undefined): A.Stmt[] {
    if (node === undefined) return [];
    const c = ch<BlockCh>(node);
    for (const p of c.propertyDecl ?? []) {
      this.problemAt(firstToken(p), '"property" declarations go directly inside a set, actor, prop or flat block, not inside a handler');
    }
    const out: A.Stmt[] = [];
    const stmts = c.statement;
    if (stmts === undefined) return out;
    for (let i = 0; i < stmts.length; i++) {
      const s = this.statement(stmts[i]!);
      if (s !== null) out.push(s);
    }
    return out;
  }

  statement(node: CstNode): A.Stmt | null {
    const c = ch<StatementCh>(node);
    if (c.expression) return this.exprStatement(c.expression[0]!);
    if (c.ifStmt) return this.ifStmt(c.ifStmt[0]!);
    if (c.whileStmt) {
      const w = ch<WhileCh>(c.whileStmt[0]!);
      const pos = this.pos(w.While?.[0]);
      return { type: 'while', cond: this.expression(w.expression?.[0]), body: this.block(w.block?.[0]), pos };
    }
    if (c.forStmt) return this.forStmt(c.forStmt[0]!);
    if (c.Break) return { type: 'break', pos: this.pos(c.Break[0]) };
    if (c.Continue) return { type: 'continue', pos: this.pos(c.Continue[0]) };
    if (c.returnStmt) {
      const r = ch<ReturnCh>(c.returnStmt[0]!);
      const pos = this.pos(r.Return?.[0]);
      return { type: 'return', value: r.expression ? this.expression(r.expression[0]) : null, pos };
    }
    if (c.globalDecl) {
      const g = ch<GlobalCh>(c.globalDecl[0]!);
      const pos = this.pos(g.Global?.[0]);
      return { type: 'global', names: (g.Identifier ?? []).map((t) => this.name(t)), pos };
    }
    return null;
  }

  ifStmt(node: CstNode): A.IfStmt {
    const c = ch<IfCh>(node);
    const pos = this.pos(c.If?.[0]);
    const branches: A.IfStmt['branches'] = [{ cond: this.expression(c.expression?.[0]), body: this.block(c.block?.[0]), pos }];
    let elseBody: A.Stmt[] | null = null;
    const elseifs = c.elseifClause ?? [];
    const elses = c.elseClause ?? [];
    // Both lists are in source order; walking them merged finds an elseif after the else.
    let i = 0;
    let j = 0;
    let elseTok: IToken | undefined;
    while (i < elseifs.length || j < elses.length) {
      const elseifTok = i < elseifs.length ? ch<ElseifCh>(elseifs[i]!).Elseif?.[0] : undefined;
      const nextElse = j < elses.length ? ch<ElseCh>(elses[j]!).Else?.[0] : undefined;
      const takeElseif = i < elseifs.length && (j >= elses.length || (elseifTok?.startOffset ?? 0) < (nextElse?.startOffset ?? 0));
      if (takeElseif) {
        const e = ch<ElseifCh>(elseifs[i++]!);
        const branch = { cond: this.expression(e.expression?.[0]), body: this.block(e.block?.[0]), pos: this.pos(elseifTok) };
        if (elseTok !== undefined) {
          this.problemAt(elseifTok, `"elseif" cannot come after the "else" at ${this.where(elseTok)}`);
        } else {
          branches.push(branch);
        }
      } else {
        const body = this.block(ch<ElseCh>(elses[j++]!).block?.[0]);
        if (elseTok !== undefined) {
          this.problemAt(nextElse, `an "if" can have only one "else" (the first is at ${this.where(elseTok)})`);
        } else {
          elseTok = nextElse;
          elseBody = body;
        }
      }
    }
    return { type: 'if', branches, elseBody, pos };
  }

  forStmt(node: CstNode): A.ForStmt {
    const c = ch<ForCh>(node);
    const pos = this.pos(c.For?.[0]);
    return {
      type: 'for',
      var: this.name(c.Identifier?.[0]),
      from: this.expression(c.from?.[0]),
      to: this.expression(c.to?.[0]),
      step: c.step ? this.expression(c.step[0]) : null,
      body: this.block(c.block?.[0]),
      pos,
    };
  }

  // At statement start `NAME = …` and `NAME[…]… = …` assign; anything else is an
  // expression statement, where `=` compares.
  exprStatement(node: CstNode): A.Stmt {
    const c = ch<ExpressionCh>(node);
    const ops = c.BinOp;
    if (ops === undefined && c.Not === undefined && c.Minus === undefined) {
      // one operand, no operators: a call statement, usually
      const atom = atomOf(c);
      const group = c.parenExpr?.[0] ?? c.listLit?.[0] ?? null;
      const pos = this.pos(atom ?? (group !== null ? groupStart(group) : undefined));
      return { type: 'expr', expr: this.primary(atom, group, c.callArgs?.[0] ?? null, c.indexSuffix ?? null), pos };
    }
    const operands = gatherOperands(c);
    const first = operands[0]!;
    if (ops !== undefined && ops[0]!.tokenType === T.Equals && first.prefixes === null && first.call === null && first.atom?.tokenType === T.Identifier) {
      const t = first.atom;
      const spelled = t.image;
      const name = spelled.toLowerCase();
      const pos = this.pos(t);
      const value = operands.length > 1 ? new ExprReader(this, operands, ops, 1, 1, this.operandOf).read() : this.missing();
      const suffixes = first.suffixes;
      if (suffixes === null) return { type: 'assign', name, spelled, value, pos };
      let target: A.Expr = { type: 'name', name, spelled, pos };
      for (let i = 0; i < suffixes.length - 1; i++) target = this.indexSuffix(target, suffixes[i]!);
      const last = ch<IndexCh>(suffixes[suffixes.length - 1]!);
      return { type: 'indexAssign', target, index: this.expression(last.expression?.[0]), value, pos };
    }
    const pos = this.pos(operandStart(first));
    return { type: 'expr', expr: new ExprReader(this, operands, ops ?? noTokens, 0, 0, this.operandOf).read(), pos };
  }

  // ---- expressions

  expression(node: CstNode | undefined): A.Expr {
    if (node === undefined) return this.missing();
    const c = ch<ExpressionCh>(node);
    if (c.BinOp === undefined && c.Not === undefined && c.Minus === undefined) {
      return this.primary(atomOf(c), c.parenExpr?.[0] ?? c.listLit?.[0] ?? null, c.callArgs?.[0] ?? null, c.indexSuffix ?? null);
    }
    return new ExprReader(this, gatherOperands(c), c.BinOp ?? noTokens, 0, 0, this.operandOf).read();
  }

  /** Stands in for an expression that error recovery left out. */
  missing(): A.Expr {
    return { type: 'void', pos: this.lastPos };
  }

  /** An operand without its prefix operators: a value, name, call or group, then indexes. */
  primary(t: IToken | null, group: CstNode | null, call: CstNode | null, suffixes: CstNode[] | null): A.Expr {
    let e: A.Expr;
    if (t !== null) {
      switch (t.tokenType) {
        case T.Identifier: {
          const spelled = t.image;
          const name = spelled.toLowerCase();
          const pos = this.pos(t);
          if (call !== null) {
            const args: A.Expr[] = [];
            const argNodes = ch<CallArgsCh>(call).expression;
            if (argNodes !== undefined) for (let i = 0; i < argNodes.length; i++) args.push(this.expression(argNodes[i]));
            e = { type: 'call', name, spelled, args, pos };
          } else {
            e = { type: 'name', name, spelled, pos };
          }
          break;
        }
        case T.NumberLit:
          e = { type: 'number', value: Number(t.image), pos: this.pos(t) };
          break;
        case T.StringLit:
        case T.UnterminatedString:
        case T.SingleQuotedString:
          e = { type: 'string', value: typeof t.payload === 'string' ? t.payload : '', pos: this.pos(t) };
          break;
        case T.True:
          e = { type: 'bool', value: true, pos: this.pos(t) };
          break;
        case T.False:
          e = { type: 'bool', value: false, pos: this.pos(t) };
          break;
        case T.Self:
          e = { type: 'self', pos: this.pos(t) };
          break;
        default:
          e = { type: 'void', pos: this.pos(t) };
      }
    } else if (group !== null) {
      if (group.name === 'listLit') {
        const l = ch<ListCh>(group);
        const pos = this.pos(l.LBracket?.[0]);
        const items: A.Expr[] = [];
        for (const x of l.expression ?? []) items.push(this.expression(x));
        e = { type: 'list', items, pos };
      } else {
        e = this.expression(ch<ParenCh>(group).expression?.[0]);
      }
    } else {
      e = this.missing();
    }
    if (suffixes !== null) {
      for (let i = 0; i < suffixes.length; i++) e = this.indexSuffix(e, suffixes[i]!);
    }
    return e;
  }

  private readonly operandOf = (o: Operand): A.Expr => this.primary(o.atom, o.group, o.call, o.suffixes);

  indexSuffix(target: A.Expr, node: CstNode): A.IndexExpr {
    const c = ch<IndexCh>(node);
    const pos = this.pos(c.LBracket?.[0]);
    return { type: 'index', target, index: this.expression(c.expression?.[0]), pos };
  }

  chainedComparison(op: IToken): void {
    this.problemAt(op, `comparisons cannot be chained: "${op.image}" follows another comparison; join them with "and", as in: a < b and b < c`);
  }

  where(t: IToken | undefined): string {
    const p = this.pos(t);
    return `${p.line}:${p.col}`;
  }
}

/** One operand of a flat expression. */
interface Operand {
  prefixes: IToken[] | null; // `not` and `-`, in source order
  atom: IToken | null; // literal, name or keyword value
  group: CstNode | null; // parenExpr or listLit
  call: CstNode | null; // callArgs after a name
  suffixes: CstNode[] | null; // indexSuffix nodes, in source order
}

const noTokens: IToken[] = [];

function newOperand(): Operand {
  return { prefixes: null, atom: null, group: null, call: null, suffixes: null };
}

/** Where a child of an expression starts: a token, or a node's opening bracket. */
function startOf(el: IToken | CstNode): number {
  if ('children' in el) {
    const c = el.children;
    const t = (c.LParen ?? c.LBracket)?.[0];
    return t !== undefined && 'startOffset' in t ? t.startOffset : -1;
  }
  return el.startOffset;
}

/**
 * Splits an expression node's children back into operands. Operand k lies between
 * operator k-1 and operator k, so each child's offset decides its operand; every
 * child list is already in source order, so one forward pass per list suffices.
 */
function gatherOperands(c: ExpressionCh): Operand[] {
  const ops = c.BinOp;
  const n = ops === undefined ? 1 : ops.length + 1;
  const out: Operand[] = new Array<Operand>(n);
  for (let i = 0; i < n; i++) out[i] = newOperand();
  place(c.Identifier, ops, out, ATOM);
  place(c.NumberLit, ops, out, ATOM);
  place(c.StringLit, ops, out, ATOM);
  place(c.True, ops, out, ATOM);
  place(c.False, ops, out, ATOM);
  place(c.Void, ops, out, ATOM);
  place(c.Self, ops, out, ATOM);
  place(c.callArgs, ops, out, CALL);
  place(c.parenExpr, ops, out, GROUP);
  place(c.listLit, ops, out, GROUP);
  place(c.indexSuffix, ops, out, SUFFIX);
  place(c.Not, ops, out, PREFIX);
  place(c.Minus, ops, out, PREFIX);
  if (c.Not !== undefined && c.Minus !== undefined) {
    for (const o of out) if (o.prefixes !== null && o.prefixes.length > 1) o.prefixes.sort(byOffset);
  }
  return out;
}

const ATOM = 0;
const CALL = 1;
const GROUP = 2;
const SUFFIX = 3;
const PREFIX = 4;

function place(list: (IToken | CstNode)[] | undefined, ops: IToken[] | undefined, out: Operand[], role: number): void {
  if (list === undefined) return;
  let k = 0;
  for (let i = 0; i < list.length; i++) {
    const el = list[i]!;
    if (ops !== undefined) {
      const at = startOf(el);
      while (k < ops.length && ops[k]!.startOffset < at) k++;
    }
    const o = out[k]!;
    switch (role) {
      case ATOM:
        o.atom = el as IToken;
        break;
      case CALL:
        o.call = el as CstNode;
        break;
      case GROUP:
        o.group = el as CstNode;
        break;
      case SUFFIX:
        (o.suffixes ??= []).push(el as CstNode);
        break;
      default:
        (o.prefixes ??= []).push(el as IToken);
    }
  }
}

function byOffset(a: IToken, b: IToken): number {
  return a.startOffset - b.startOffset;
}

/** An operand the parser has already turned into AST, with its prefix operators. */
export interface BuiltOperand {
  prefixes: IToken[] | null; // `not` and `-`, in source order
  expr: A.Expr;
}

function builtExpr(o: BuiltOperand): A.Expr {
  return o.expr;
}

/** The node for `left op right`. */
export function binary(b: AstBuilder, op: IToken, left: A.Expr, right: A.Expr): A.BinaryExpr {
  return { type: 'binary', op: opByIdx[op.tokenTypeIdx] ?? 'or', left, right, pos: b.pos(op) };
}

/** Applies precedence to built operands and their operators, from operand k and operator j. */
export function readOperands(b: AstBuilder, operands: BuiltOperand[], ops: IToken[], k: number, j: number): A.Expr {
  return new ExprReader(b, operands, ops, k, j, builtExpr).read();
}

/**
 * The entries of a shared stack from `from` on, taken off it. The readers collect lists
 * on shared stacks and copy each out at its exact length: an array grown by pushing
 * keeps room for more, and AST arrays live as long as the program.
 */
export function takeFrom<E>(stack: E[], from: number): E[] {
  if (stack.length === from) return [];
  const out = stack.slice(from);
  stack.length = from;
  return out;
}

/** A flat expression's operators and operands after the first, while it is parsed. */
export interface FlatTail {
  ops: IToken[];
  operands: BuiltOperand[];
}

const noOps: IToken[] = [];

/**
 * Precedence for a flat expression read by the parser's actions: `first` with its
 * prefix operators, then the tail, from operand `from` on (0 is `first`). The common
 * `a op b` is built directly; the result is the same.
 */
export function readFlat(b: AstBuilder, first: A.Expr, prefixes: IToken[] | null, tail: FlatTail | null, from: number): A.Expr {
  if (tail === null) return readOperands(b, [{ prefixes, expr: first }], noOps, 0, 0);
  const ops = tail.ops;
  const rest = tail.operands;
  if (ops.length === from + 1 && rest[from]!.prefixes === null) {
    if (from === 0 && prefixes === null) return binary(b, ops[0]!, first, rest[0]!.expr);
    const left = rest[from - 1];
    if (from > 0 && left!.prefixes === null) return binary(b, ops[from]!, left!.expr, rest[from]!.expr);
  }
  rest.unshift({ prefixes, expr: first });
  return readOperands(b, rest, ops, from, from);
}

/**
 * A flat expression read as a whole statement, at `pos`. `NAME = …` and `NAME[…]… = …`
 * assign (`isName`: the first operand is a plain name, perhaps indexed); anything else
 * is an expression statement, where `=` compares.
 */
export function expressionStatement(b: AstBuilder, pos: A.Pos, first: A.Expr, prefixes: IToken[] | null, isName: boolean, tail: FlatTail | null): A.Stmt {
  if (tail === null) {
    const expr = prefixes === null ? first : readFlat(b, first, prefixes, null, 0);
    return { type: 'expr', expr, pos };
  }
  if (isName && prefixes === null && tail.ops[0]!.tokenType === T.Equals) {
    const value = tail.operands.length === 1 && tail.operands[0]!.prefixes === null ? tail.operands[0]!.expr : readFlat(b, first, prefixes, tail, 1);
    if (first.type === 'name') return { type: 'assign', name: first.name, spelled: first.spelled, value, pos };
    const last = first as A.IndexExpr;
    return { type: 'indexAssign', target: last.target, index: last.index, value, pos };
  }
  return { type: 'expr', expr: readFlat(b, first, prefixes, tail, 0), pos };
}

/**
 * Precedence climbing over an expression's operands and operators. Prefix `-`
 * applies to the operand right after it; prefix `not` to everything up to the next
 * `and`/`or`, so `not a = b` is `not (a = b)`.
 */
class ExprReader<O extends { prefixes: IToken[] | null }> {
  private p = 0; // prefixes of operand k already applied

  constructor(
    private readonly b: AstBuilder,
    private readonly operands: O[],
    private readonly ops: IToken[],
    private k: number,
    private j: number,
    private readonly primary: (o: O) => A.Expr,
  ) {}

  read(): A.Expr {
    return this.climb(PREC_OR);
  }

  private climb(minPrec: number): A.Expr {
    let left = this.unary();
    let afterComparison = false;
    while (this.j < this.ops.length) {
      const op = this.ops[this.j]!;
      const prec = precByIdx[op.tokenTypeIdx] ?? PREC_OR;
      if (prec < minPrec) break;
      this.j++;
      if (prec === PREC_CMP) {
        if (afterComparison) this.b.chainedComparison(op);
        afterComparison = true;
      } else {
        afterComparison = false;
      }
      const right = this.climb(prec + 1);
      left = binary(this.b, op, left, right);
    }
    return left;
  }

  private unary(): A.Expr {
    const o = this.operands[this.k];
    if (o === undefined) return this.b.missing();
    const prefixes = o.prefixes;
    if (prefixes !== null && this.p < prefixes.length) {
      const t = prefixes[this.p++]!;
      const pos = this.b.pos(t);
      if (t.tokenType === T.Not) return { type: 'unary', op: 'not', operand: this.climb(PREC_CMP), pos };
      return { type: 'unary', op: '-', operand: this.unary(), pos };
    }
    this.k++;
    this.p = 0;
    return this.primary(o);
  }
}

/** The first token of an operand, for statement positions. */
function operandStart(o: Operand): IToken | undefined {
  if (o.prefixes !== null) return o.prefixes[0];
  if (o.atom !== null) return o.atom;
  if (o.group !== null) return groupStart(o.group);
  return undefined;
}

function groupStart(group: CstNode): IToken | undefined {
  const c = group.children;
  return (c.LParen ?? c.LBracket)?.[0] as IToken | undefined;
}

/** The value, name or keyword token of a single-operand expression. */
function atomOf(c: ExpressionCh): IToken | null {
  return c.Identifier?.[0] ?? c.NumberLit?.[0] ?? c.StringLit?.[0] ?? c.True?.[0] ?? c.False?.[0] ?? c.Void?.[0] ?? c.Self?.[0] ?? null;
}

/** The earliest real token anywhere under a node (used for error positions). */
function firstToken(node: CstNode): IToken | undefined {
  let best: IToken | undefined;
  const children = node.children;
  for (const key in children) {
    for (const el of children[key]!) {
      const t = 'children' in el ? firstToken(el) : el;
      if (t !== undefined && t.startOffset >= 0 && (best === undefined || t.startOffset < best.startOffset)) {
        best = t;
      }
    }
  }
  return best;
}
