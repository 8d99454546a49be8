// Small views of the AST that make expectations short and readable.
import type * as A from '../../grammar/ast.ts';
import { parseFile, parseRepl } from '../../grammar/parser.ts';

/** An expression as an S-expression: `(+ a (* b c))`. */
export function show(e: A.Expr): string {
  switch (e.type) {
    case 'number':
      return String(e.value);
    case 'string':
      return JSON.stringify(e.value);
    case 'bool':
      return String(e.value);
    case 'void':
      return 'void';
    case 'self':
      return 'self';
    case 'name':
      return e.name;
    case 'list':
      return `[${e.items.map(show).join(' ')}]`;
    case 'call':
      return `${e.name}(${e.args.map(show).join(' ')})`;
    case 'index':
      return `${show(e.target)}[${show(e.index)}]`;
    case 'unary':
      return `(${e.op} ${show(e.operand)})`;
    case 'binary':
      return `(${e.op} ${show(e.left)} ${show(e.right)})`;
  }
}

/** A statement on one line, with nested bodies in braces. */
export function showStmt(s: A.Stmt): string {
  const body = (b: A.Stmt[]) => `{${b.map(showStmt).join('; ')}}`;
  switch (s.type) {
    case 'if':
      return s.branches.map((b, i) => `${i === 0 ? 'if' : 'elseif'} ${show(b.cond)} ${body(b.body)}`).join(' ') + (s.elseBody ? ` else ${body(s.elseBody)}` : '');
    case 'while':
      return `while ${show(s.cond)} ${body(s.body)}`;
    case 'for':
      return `for ${s.var.name} ${show(s.from)} ${show(s.to)}${s.step ? ' step ' + show(s.step) : ''} ${body(s.body)}`;
    case 'break':
    case 'continue':
      return s.type;
    case 'return':
      return s.value ? `return ${show(s.value)}` : 'return';
    case 'global':
      return `global ${s.names.map((n) => n.name).join(',')}`;
    case 'assign':
      return `${s.name} := ${show(s.value)}`;
    case 'indexAssign':
      return `${show(s.target)}[${show(s.index)}] := ${show(s.value)}`;
    case 'expr':
      return show(s.expr);
  }
}

/** Parses one expression by putting it in a REPL statement. */
export function expr(source: string): string {
  const r = parseRepl(`print (${source})`, 'e.pw');
  if (r.errors.length > 0) throw new Error(r.errors.map((e) => e.message).join('\n'));
  const s = r.items[0] as A.ExprStmt;
  return show((s.expr as A.CallExpr).args[0]!);
}

/** The statements of `on t … end`, shown. */
export function body(lines: string): string[] {
  const r = parseFile(`on t\n${lines}\nend\n`, 'b.pw');
  if (r.errors.length > 0) throw new Error(r.errors.map((e) => `${e.pos.line}:${e.pos.col} ${e.message}`).join('\n'));
  return (r.ast.items[0] as A.Handler).body.map(showStmt);
}

/** Errors as `line:col message`. */
export function errorsOf(source: string): string[] {
  return parseFile(source, 'x.pw').errors.map((e) => `${e.pos.line}:${e.pos.col} ${e.message}`);
}
