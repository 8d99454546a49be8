// What one parsed file declares and names: its objects, handlers, properties and
// globals, every call, and every argument that names an object, an event, a star, a
// sound… (as the roles table says). Built from the parser's AST, one file at a time,
// so an editor re-reads only the file that changed. The lints and the language server
// read these facts; nothing here resolves names across files.
import type * as A from '../../grammar/ast.ts';
import { Identifier, lineStarts, NumberLit, SingleQuotedString, StringLit, UnterminatedString } from '../../grammar/lexer.ts';
import { argRoles, loopTargetKind, type NameKind } from './roles.ts';

/** A stretch of one line: 1-based line and column, length in characters. */
export interface Span {
  line: number;
  col: number;
  length: number;
}

export interface ObjectFact {
  kind: A.ObjectKind;
  name: string;
  spelled: string;
  file: string;
  /** the name after the opening keyword */
  span: Span;
  line: number;
  endLine: number;
  properties: PropertyFact[];
  handlers: HandlerFact[];
}

export interface PropertyFact {
  name: string;
  spelled: string;
  span: Span;
  object: ObjectFact;
}

export interface HandlerFact {
  name: string;
  spelled: string;
  params: A.Param[];
  file: string;
  /** the handler's name */
  span: Span;
  /** the `on` keyword */
  line: number;
  col: number;
  /** the last line that can belong to it (the line before whatever follows it) */
  endLine: number;
  object: ObjectFact | null;
  ast: A.Handler;
}

export interface GlobalFact {
  name: string;
  spelled: string;
  span: Span;
}

/** Where a call stands: the object and handler around it (both null at top level). */
export interface Where {
  object: ObjectFact | null;
  handler: HandlerFact | null;
}

export interface CallFact {
  name: string;
  spelled: string;
  span: Span;
  expr: A.CallExpr;
  where: Where;
}

/** An argument that names something, written as a string literal (or `self` for an object). */
export interface NameArg {
  what: 'object' | 'event' | NameKind;
  /** object: the kind named; event: the kind of object it is delivered to */
  kind: A.ObjectKind | null;
  name: string; // lower-cased
  /** the literal with its quotes, or `self` */
  span: Span;
  self: boolean;
  define: boolean;
  call: CallFact;
  arg: number;
  /** event: the object it goes to, null when it may go to any object of `kind` */
  target: string | null;
}

/** A name defined by an expression: `"landlady" .. i` defines every name that starts "landlady"; prefix null: any name. */
export interface OpenDef {
  kind: NameKind;
  prefix: string | null;
  span: Span;
}

/** An event not written as a literal: any handler of `kind` objects (or of `target`; kind null: any object) may get it. */
export interface DynamicEvent {
  kind: A.ObjectKind | null;
  target: string | null;
}

/** `"text" + 3`: a "+" between written-out values, one of them a string. */
export interface JoinFact {
  span: Span;
  text: string;
}

/** A number inside a timing argument. */
export interface TimeArg {
  span: Span;
  call: CallFact;
  arg: number;
}

export interface FileFacts {
  file: string;
  source: string;
  /** where each line starts (lineStarts) */
  lines: number[];
  objects: ObjectFact[];
  /** global handlers */
  handlers: HandlerFact[];
  /** `global` declarations, at top level and in handlers */
  globals: GlobalFact[];
  calls: CallFact[];
  names: NameArg[];
  openDefs: OpenDef[];
  dynamicEvents: DynamicEvent[];
  times: TimeArg[];
  joins: JoinFact[];
  /** `line:col` of every for-loop variable */
  loopVars: Set<string>;
}

const stringTokens = [StringLit, SingleQuotedString, UnterminatedString].map((t) => new RegExp((t.PATTERN as RegExp).source, 'y'));
const numberToken = new RegExp((NumberLit.PATTERN as RegExp).source, 'y');
const nameToken = new RegExp((Identifier.PATTERN as RegExp).source, 'y');

/** Offset of a line and column in the source. */
export function offsetOf(lines: readonly number[], line: number, col: number): number {
  return (lines[line - 1] ?? 0) + col - 1;
}

/** The length of the token of this pattern at pos (1 if it does not match there). */
function tokenLength(source: string, lines: readonly number[], pos: A.Pos, patterns: RegExp[]): number {
  const at = offsetOf(lines, pos.line, pos.col);
  for (const p of patterns) {
    p.lastIndex = at;
    const m = p.exec(source);
    if (m !== null && m[0].length > 0) return m[0].length;
  }
  return 1;
}

export function nameSpan(pos: A.Pos, spelled: string): Span {
  return { line: pos.line, col: pos.col, length: spelled.length };
}

/** The comment lines right above a line, without their dashes: what the author wrote about it. */
export function docAbove(source: string, lines: readonly number[], line: number): string {
  const out: string[] = [];
  for (let n = line - 1; n >= 1; n--) {
    const text = source.slice(lines[n - 1], n < lines.length ? lines[n] : source.length).trim();
    if (!text.startsWith('--')) break;
    out.unshift(text.replace(/^--+\s?/, ''));
  }
  return out.join('\n');
}

function globalFacts(f: FileFacts, names: readonly A.Param[]): void {
  for (const n of names) f.globals.push({ name: n.name, spelled: n.spelled, span: nameSpan(n.pos, n.spelled) });
}

/**
 * Reads one file's facts from its AST (which may be partial after syntax errors).
 * `part`: the AST holds some of the file's items only (its source is the whole file's):
 * the file's line starts, computed once, and the last line these items can run to.
 */
export function fileFacts(ast: A.ScriptFile, part?: { lines: number[]; lastLine: number }): FileFacts {
  const source = ast.source;
  const lines = part?.lines ?? lineStarts(source);
  const f: FileFacts = { file: ast.file, source, lines, objects: [], handlers: [], globals: [], calls: [], names: [], openDefs: [], dynamicEvents: [], times: [], joins: [], loopVars: new Set() };
  const strLen = (pos: A.Pos): number => tokenLength(source, lines, pos, stringTokens);
  const items = ast.items;
  // the line a last item runs to: not the empty "line" after a final line break
  const lastLine = part?.lastLine ?? (lines.length > 1 && lines[lines.length - 1] === source.length ? lines.length - 1 : lines.length);
  const handlerFact = (h: A.Handler, object: ObjectFact | null, endLine: number): HandlerFact => ({
    name: h.name,
    spelled: h.spelled,
    params: h.params,
    file: ast.file,
    span: nameSpan(h.namePos, h.spelled),
    line: h.pos.line,
    col: h.pos.col,
    endLine: Math.max(endLine, h.pos.line),
    object,
    ast: h,
  });

  const walk = new FactWalker(f, strLen);
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const nextLine = i + 1 < items.length ? items[i + 1].pos.line - 1 : lastLine;
    if (item.type === 'global') {
      globalFacts(f, item.names);
    } else if (item.type === 'handler') {
      const h = handlerFact(item, null, nextLine);
      f.handlers.push(h);
      walk.handler(h);
    } else {
      // the block's position is its keyword; the name is the next word on the line
      const at = offsetOf(lines, item.pos.line, item.pos.col) + item.kind.length;
      const rest = source.slice(at, at + 200);
      const nameCol = item.pos.col + item.kind.length + rest.length - rest.trimStart().length;
      const o: ObjectFact = {
        kind: item.kind,
        name: item.name,
        spelled: item.spelled,
        file: ast.file,
        span: { line: item.pos.line, col: nameCol, length: item.spelled.length },
        line: item.pos.line,
        endLine: Math.max(item.endPos.line, item.pos.line),
        properties: [],
        handlers: [],
      };
      f.objects.push(o);
      for (const p of item.properties) {
        o.properties.push({ name: p.name, spelled: p.spelled, span: nameSpan(p.pos, p.spelled), object: o });
        if (p.init) walk.expr(p.init, { object: o, handler: null });
      }
      const hs = item.handlers;
      for (let j = 0; j < hs.length; j++) {
        const end = j + 1 < hs.length ? hs[j + 1].pos.line - 1 : o.endLine - 1;
        const h = handlerFact(hs[j], o, end);
        o.handlers.push(h);
        walk.handler(h);
      }
    }
  }
  return f;
}

class FactWalker {
  constructor(
    private readonly f: FileFacts,
    private readonly strLen: (pos: A.Pos) => number,
  ) {}

  handler(h: HandlerFact): void {
    this.stmts(h.ast.body, { object: h.object, handler: h });
  }

  private stmts(body: A.Stmt[], where: Where): void {
    for (const s of body) {
      switch (s.type) {
        case 'if':
          for (const b of s.branches) {
            this.expr(b.cond, where);
            this.stmts(b.body, where);
          }
          if (s.elseBody) this.stmts(s.elseBody, where);
          break;
        case 'while':
          this.expr(s.cond, where);
          this.stmts(s.body, where);
          break;
        case 'for':
          this.f.loopVars.add(`${s.var.pos.line}:${s.var.pos.col}`);
          this.expr(s.from, where);
          this.expr(s.to, where);
          if (s.step) this.expr(s.step, where);
          this.stmts(s.body, where);
          break;
        case 'return':
          if (s.value) this.expr(s.value, where);
          break;
        case 'assign':
          this.expr(s.value, where);
          break;
        case 'indexAssign':
          this.expr(s.target, where);
          this.expr(s.index, where);
          this.expr(s.value, where);
          break;
        case 'expr':
          this.expr(s.expr, where);
          break;
        case 'global':
          globalFacts(this.f, s.names);
          break;
      }
    }
  }

  expr(e: A.Expr, where: Where): void {
    // left-associative chains are long spines down the left: walked in a loop
    while (e.type === 'binary') {
      this.expr(e.right, where);
      if (e.op === '+') this.join(e);
      e = e.left;
    }
    switch (e.type) {
      case 'list':
        for (const x of e.items) this.expr(x, where);
        return;
      case 'index':
        this.expr(e.target, where);
        this.expr(e.index, where);
        return;
      case 'unary':
        this.expr(e.operand, where);
        return;
      case 'call':
        this.call(e, where);
        for (const a of e.args) this.expr(a, where);
        return;
    }
  }

  private call(e: A.CallExpr, where: Where): void {
    const f = this.f;
    const call: CallFact = { name: e.name, spelled: e.spelled, span: nameSpan(e.pos, e.spelled), expr: e, where };
    f.calls.push(call);
    const roles = argRoles(e.name);
    if (roles.length === 0) return;
    const args = e.args;
    for (let i = 0; i < roles.length && i < args.length; i++) {
      const role = roles[i];
      if (role === null) continue;
      const a = args[i];
      switch (role.role) {
        case 'object': {
          const named = this.literal(a, where);
          if (named) f.names.push({ what: 'object', kind: role.kind, ...named, define: false, call, arg: i, target: null });
          break;
        }
        case 'target': {
          const kind = loopTargetKind(this.text(args[0]) ?? '');
          const named = kind !== null && kind !== 'set' ? this.literal(a, where) : null;
          if (named) f.names.push({ what: 'object', kind, ...named, define: false, call, arg: i, target: null });
          break;
        }
        case 'event':
          this.event(call, i, role.kind ?? null, role.to);
          break;
        case 'name':
          if (a.type === 'string')
            f.names.push({ what: role.kind, kind: null, name: a.value.toLowerCase(), span: this.stringSpan(a), self: false, define: role.define === true, call, arg: i, target: null });
          else if (role.define) f.openDefs.push({ kind: role.kind, prefix: prefixOf(a), span: { line: a.pos.line, col: a.pos.col, length: 1 } });
          break;
        case 'names':
          if (a.type === 'list') {
            for (const x of a.items) {
              if (x.type === 'string') f.names.push({ what: role.kind, kind: null, name: x.value.toLowerCase(), span: this.stringSpan(x), self: false, define: false, call, arg: i, target: null });
            }
          }
          break;
        case 'time':
          this.numbers(a, call, i);
          break;
        case 'loopkind':
          break;
      }
    }
  }

  private join(e: A.BinaryExpr): void {
    const literal = (x: A.Expr): boolean => x.type === 'number' || x.type === 'string';
    if (!literal(e.left) || !literal(e.right)) return;
    const text = e.left.type === 'string' ? e.left : e.right.type === 'string' ? e.right : null;
    if (text !== null) this.f.joins.push({ span: { line: e.pos.line, col: e.pos.col, length: 1 }, text: text.value });
  }

  /** An event argument: who gets it, and whether it is a literal. */
  private event(call: CallFact, i: number, fixedKind: A.ObjectKind | null, to: number | undefined): void {
    const args = call.expr.args;
    const where = call.where;
    let kind = fixedKind;
    let target: string | null = null;
    if (to !== undefined) {
      target = this.literal(args[to], where)?.name ?? null;
    } else if (kind === null) {
      // a loop: the kind is its first argument; makeloop's target defaults to the object that arms it
      kind = loopTargetKind(this.text(args[0]) ?? '');
      if (call.name === 'makeloop' && kind !== null && kind !== 'set') {
        target = args.length > 3 ? (this.literal(args[3], where)?.name ?? null) : (where.object?.name ?? null);
      }
    }
    const a = args[i];
    // (kind null: a loop whose kind is not a literal, which may go to any object)
    if (a.type === 'string') this.f.names.push({ what: 'event', kind, name: a.value.toLowerCase(), span: this.stringSpan(a), self: false, define: false, call, arg: i, target });
    else this.f.dynamicEvents.push({ kind, target });
  }

  /** A literal name (or `self` inside an object block). */
  private literal(a: A.Expr | undefined, where: Where): { name: string; span: Span; self: boolean } | null {
    if (a === undefined) return null;
    if (a.type === 'string') return { name: a.value.toLowerCase(), span: this.stringSpan(a), self: false };
    if (a.type === 'self' && where.object !== null) return { name: where.object.name, span: { line: a.pos.line, col: a.pos.col, length: 4 }, self: true };
    return null;
  }

  private text(a: A.Expr | undefined): string | null {
    return a !== undefined && a.type === 'string' ? a.value.toLowerCase() : null;
  }

  private stringSpan(a: A.StringLit): Span {
    return { line: a.pos.line, col: a.pos.col, length: this.strLen(a.pos) };
  }

  /** Every number literal inside a timing argument. */
  private numbers(e: A.Expr, call: CallFact, arg: number): void {
    while (e.type === 'binary') {
      this.numbers(e.right, call, arg);
      e = e.left;
    }
    if (e.type === 'number') {
      const f = this.f;
      const at = offsetOf(f.lines, e.pos.line, e.pos.col);
      numberToken.lastIndex = at;
      const m = numberToken.exec(f.source);
      f.times.push({ span: { line: e.pos.line, col: e.pos.col, length: m ? m[0].length : 1 }, call, arg });
    } else if (e.type === 'unary') this.numbers(e.operand, call, arg);
    else if (e.type === 'call') for (const a of e.args) this.numbers(a, call, arg);
  }
}

/** The literal start of a name built by joining: `"landlady" .. i` → "landlady"; null when nothing is known. */
function prefixOf(e: A.Expr): string | null {
  while (e.type === 'binary' && e.op === '..') e = e.left;
  return e.type === 'string' && e.value !== '' ? e.value.toLowerCase() : null;
}

const anyToken = [nameToken, ...stringTokens, numberToken];

/** The length of the name, string or number at a position (1 when there is none): to underline a whole word. */
export function tokenLengthAt(source: string, lines: readonly number[], line: number, col: number): number {
  return tokenLength(source, lines, { line, col }, anyToken);
}
