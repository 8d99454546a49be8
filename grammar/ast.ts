// The abstract syntax tree: what the parser hands to the compiler.
// Plain data only. Every node carries the source position of its first token.
// Names (variables, handlers, objects) are lower-cased by the parser because the
// language is case-insensitive; `spelled` keeps the author's spelling for messages.

export interface Pos {
  line: number; // 1-based
  col: number; // 1-based
}

export type ObjectKind = 'set' | 'actor' | 'prop' | 'flat';

export interface ScriptFile {
  file: string; // path as given, used in messages
  source: string;
  items: TopItem[];
}

export type TopItem = ObjectBlock | Handler | GlobalDecl;

export interface ObjectBlock {
  type: 'object';
  kind: ObjectKind;
  name: string; // lower-cased
  spelled: string;
  pos: Pos;
  properties: PropertyDecl[];
  handlers: Handler[];
  endPos: Pos; // position of the closing keyword (endset/…)
}

export interface PropertyDecl {
  type: 'property';
  name: string;
  spelled: string;
  init: Expr | null; // `property x = 1` or `property x`
  pos: Pos;
}

export interface Handler {
  type: 'handler';
  name: string; // lower-cased
  spelled: string;
  params: Param[];
  body: Stmt[];
  pos: Pos; // the `on` keyword
  namePos: Pos;
  endPos?: Pos; // its `end` (absent when it is missing, or made by a tool)
  noLoopCheck: boolean; // `on noloopcheck NAME`: exempt from the runaway guard
}

export interface Param {
  name: string;
  spelled: string;
  pos: Pos;
}

export interface GlobalDecl {
  type: 'global';
  names: Param[];
  pos: Pos;
}

export type Stmt = IfStmt | WhileStmt | ForStmt | BreakStmt | ContinueStmt | ReturnStmt | GlobalDecl | AssignStmt | IndexAssignStmt | ExprStmt;

export interface IfStmt {
  type: 'if';
  // the first branch is the `if`, the rest are `elseif`s
  branches: { cond: Expr; body: Stmt[]; pos: Pos }[];
  elseBody: Stmt[] | null;
  pos: Pos;
}

export interface WhileStmt {
  type: 'while';
  cond: Expr;
  body: Stmt[];
  pos: Pos;
}

export interface ForStmt {
  type: 'for';
  var: Param;
  from: Expr;
  to: Expr;
  step: Expr | null;
  body: Stmt[];
  pos: Pos;
}

export interface BreakStmt {
  type: 'break';
  pos: Pos;
}

export interface ContinueStmt {
  type: 'continue';
  pos: Pos;
}

export interface ReturnStmt {
  type: 'return';
  value: Expr | null;
  pos: Pos;
}

export interface AssignStmt {
  type: 'assign';
  name: string;
  spelled: string;
  value: Expr;
  pos: Pos; // the name
}

export interface IndexAssignStmt {
  type: 'indexAssign';
  target: Expr; // the list expression, e.g. `a` or `a[1]` in `a[1][2] = x`
  index: Expr;
  value: Expr;
  pos: Pos;
}

export interface ExprStmt {
  type: 'expr';
  expr: Expr;
  pos: Pos;
}

export type BinaryOp = 'or' | 'and' | '=' | '<>' | '<' | '<=' | '>' | '>=' | '..' | '+' | '-' | '*' | '/' | 'mod';

export type Expr = NumberLit | StringLit | BoolLit | VoidLit | ListLit | NameRef | SelfRef | CallExpr | IndexExpr | UnaryExpr | BinaryExpr;

export interface NumberLit {
  type: 'number';
  value: number;
  pos: Pos;
}

export interface StringLit {
  type: 'string';
  value: string; // escapes already decoded
  pos: Pos;
}

export interface BoolLit {
  type: 'bool';
  value: boolean;
  pos: Pos;
}

export interface VoidLit {
  type: 'void';
  pos: Pos;
}

export interface ListLit {
  type: 'list';
  items: Expr[];
  pos: Pos;
}

export interface NameRef {
  type: 'name';
  name: string;
  spelled: string;
  pos: Pos;
}

export interface SelfRef {
  type: 'self';
  pos: Pos;
}

export interface CallExpr {
  type: 'call';
  name: string;
  spelled: string;
  args: Expr[];
  pos: Pos;
}

export interface IndexExpr {
  type: 'index';
  target: Expr;
  index: Expr;
  pos: Pos; // the `[`
}

export interface UnaryExpr {
  type: 'unary';
  op: 'not' | '-';
  operand: Expr;
  pos: Pos;
}

export interface BinaryExpr {
  type: 'binary';
  op: BinaryOp;
  left: Expr;
  right: Expr;
  pos: Pos; // the operator
}

/** One syntax error, as the parser reports it. */
export interface SyntaxProblem {
  file: string;
  pos: Pos;
  length: number; // characters to underline (at least 1)
  message: string; // plain words, e.g. `expected "endwhile" to close the while loop opened at 12:3`
}

export interface ParseResult {
  ast: ScriptFile;
  errors: SyntaxProblem[];
}
