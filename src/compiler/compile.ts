// AST → register bytecode. One HandlerCode per handler; every instruction keeps the
// source position it came from so errors and the disassembler can name it.
import type * as A from '../../grammar/ast.ts';
import { Op, OPS } from '../vm/opcodes.ts';
import type { Value } from '../vm/value.ts';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { closest } from '../errors/suggest.ts';
import { arityOf, type Builtin } from '../builtins/registry.ts';
import type { HandlerCode, ObjectInfo, Program } from './program.ts';

/** Which scope a name resolved to. */
type Slot =
  | { where: 'local'; reg: number }
  | { where: 'global'; index: number }
  | { where: 'property'; index: number };

interface LoopCtx {
  breaks: number[]; // jump operands to patch to the loop's exit
  continues: number[]; // jump operands to patch to the loop's continue point
}

export interface CompileContext {
  builtins: readonly Builtin[];
  builtinIndex: ReadonlyMap<string, number>;
  diagnostics: Diagnostic[];
  /** Program under construction (handlers/globals appended as they are compiled). */
  program: Program;
  /** Parameter count of every declared handler, by index, including ones not compiled yet. */
  paramCounts: number[];
}

const CALLS_ALLOWED_AS_STATEMENT = new Set(['call']);

export class HandlerCompiler {
  private code: number[] = [];
  private lines: number[] = [];
  private cols: number[] = [];
  private consts: Value[] = [];
  private numConsts = new Map<number, number>();
  private strConsts = new Map<string, number>();
  private otherConsts = new Map<Value, number>();
  private locals = new Map<string, number>(); // name → register
  private localNames: string[] = [];
  private handlerGlobals = new Set<string>();
  private nextReg = 0;
  private maxReg = 0;
  private loops: LoopCtx[] = [];
  private pos: A.Pos = { line: 0, col: 0 };
  /** Locals certainly assigned at this point on every path (no runtime check needed). */
  private definite = new Set<string>();
  /** Locals assigned somewhere textually before this point. */
  private seenAssigned = new Set<string>();
  private loopDepth = 0;
  private paramCount = 0;

  constructor(
    private readonly cx: CompileContext,
    private readonly file: A.ScriptFile,
    private readonly fileGlobals: ReadonlySet<string>,
    private readonly object: ObjectInfo | null,
    private readonly objectIndex: number,
  ) {}

  compileHandler(h: A.Handler, replEcho = false): HandlerCode {
    for (const p of h.params) {
      if (this.locals.has(p.name)) this.error(p.pos, `parameter "${p.spelled}" is named twice`);
      this.declareLocal(p.name);
      this.definite.add(p.name);
      this.seenAssigned.add(p.name);
    }
    const params = this.nextReg;
    this.paramCount = params;
    // Pre-scan: `global` statements anywhere in the handler apply to the whole handler,
    // and every name assigned in it (and not global/property) is a local.
    this.scanDecls(h.body);
    this.scanAssigned(h.body);
    this.pos = h.pos;
    const body = h.body;
    if (replEcho && body.length > 0 && body[body.length - 1].type === 'expr') {
      this.block(body.slice(0, -1));
      const last = body[body.length - 1] as A.ExprStmt;
      this.pos = last.pos;
      const r = this.exprAny(last.expr);
      this.emit(Op.RET, r);
    } else {
      this.block(body);
    }
    return this.finish(h.name, h.spelled, params, h.pos, h.noLoopCheck);
  }

  /** Closes the code with a return and packs it as an immutable handler. */
  private finish(name: string, spelled: string, params: number, pos: A.Pos, noLoopCheck: boolean): HandlerCode {
    this.pos = pos;
    this.emit(Op.RETV);
    return {
      name,
      spelled,
      object: this.objectIndex,
      params,
      registers: Math.max(this.maxReg, 1),
      code: new Int32Array(this.code),
      consts: this.consts,
      lines: new Int32Array(this.lines),
      cols: new Int32Array(this.cols),
      file: this.file.file,
      line: pos.line,
      col: pos.col,
      localNames: this.localNames,
      noLoopCheck,
    };
  }

  /** Property initialisers of an object, compiled as one handler run at load time. */
  compileInit(props: A.PropertyDecl[], pos: A.Pos): HandlerCode {
    for (const p of props) {
      if (!p.init) continue;
      this.pos = p.pos;
      const idx = this.object!.properties.indexOf(p.name);
      const r = this.exprAny(p.init);
      this.emit(Op.SETP, idx, r);
      this.freeTemps(0);
    }
    return this.finish('(properties)', '(properties)', 0, pos, false);
  }

  // ---- declarations -------------------------------------------------------

  private scanDecls(stmts: A.Stmt[]): void {
    for (const s of stmts) {
      switch (s.type) {
        case 'global':
          for (const n of s.names) {
            this.handlerGlobals.add(n.name);
            globalIndex(this.cx.program, n.name);
          }
          break;
        case 'if':
          for (const b of s.branches) this.scanDecls(b.body);
          if (s.elseBody) this.scanDecls(s.elseBody);
          break;
        case 'while':
        case 'for':
          this.scanDecls(s.body);
          break;
      }
    }
  }

  private scanAssigned(stmts: A.Stmt[]): void {
    for (const s of stmts) {
      switch (s.type) {
        case 'assign':
          this.maybeLocal(s.name);
          break;
        case 'for':
          this.maybeLocal(s.var.name);
          this.scanAssigned(s.body);
          break;
        case 'if':
          for (const b of s.branches) this.scanAssigned(b.body);
          if (s.elseBody) this.scanAssigned(s.elseBody);
          break;
        case 'while':
          this.scanAssigned(s.body);
          break;
      }
    }
  }

  private maybeLocal(name: string): void {
    if (this.locals.has(name) || name === 'self') return;
    if (this.isGlobalName(name) || this.isProperty(name)) return;
    this.declareLocal(name);
  }

  private declareLocal(name: string): number {
    const r = this.nextReg++;
    this.maxReg = Math.max(this.maxReg, this.nextReg);
    this.locals.set(name, r);
    this.localNames[r] = name;
    return r;
  }

  private isGlobalName(name: string): boolean {
    return this.handlerGlobals.has(name) || (this.fileGlobals.has(name) && !this.isProperty(name));
  }

  private isProperty(name: string): boolean {
    return this.object !== null && this.object.properties.includes(name);
  }

  private resolve(name: string): Slot | null {
    const local = this.locals.get(name);
    // Parameters and handler-level `global` shadow properties; properties shadow file globals.
    if (local !== undefined && local < this.paramCount) return { where: 'local', reg: local };
    if (this.handlerGlobals.has(name)) return { where: 'global', index: globalIndex(this.cx.program, name) };
    if (this.isProperty(name)) return { where: 'property', index: this.object!.properties.indexOf(name) };
    if (this.fileGlobals.has(name)) return { where: 'global', index: globalIndex(this.cx.program, name) };
    if (local !== undefined) return { where: 'local', reg: local };
    return null;
  }

  // ---- statements ---------------------------------------------------------

  private block(stmts: A.Stmt[]): void {
    // temporaries live across the block (a for loop's counter) must survive its statements
    const base = this.temps();
    for (const s of stmts) {
      this.stmt(s);
      this.freeTemps(base);
    }
  }

  private stmt(s: A.Stmt): void {
    this.pos = s.pos;
    switch (s.type) {
      case 'assign':
        return this.assign(s);
      case 'indexAssign': {
        const base = this.temps();
        const t = this.exprAny(s.target);
        const i = this.exprAny(s.index);
        const v = this.exprAny(s.value);
        this.pos = s.pos;
        this.emit(Op.SETINDEX, t, i, v);
        this.freeTemps(base);
        return;
      }
      case 'expr':
        return this.exprStmt(s);
      case 'if':
        return this.ifStmt(s);
      case 'while':
        return this.whileStmt(s);
      case 'for':
        return this.forStmt(s);
      case 'break': {
        const loop = this.loops[this.loops.length - 1];
        if (!loop) return this.error(s.pos, '"break" outside a loop');
        this.emit(Op.JMP, 0);
        loop.breaks.push(this.code.length - 1);
        return;
      }
      case 'continue': {
        const loop = this.loops[this.loops.length - 1];
        if (!loop) return this.error(s.pos, '"continue" outside a loop');
        this.emit(Op.JMP, 0);
        loop.continues.push(this.code.length - 1);
        return;
      }
      case 'return':
        if (s.value) {
          const r = this.exprAny(s.value);
          this.pos = s.pos;
          this.emit(Op.RET, r);
        } else {
          this.emit(Op.RETV);
        }
        return;
      case 'global':
        return; // handled by scanDecls
    }
  }

  private assign(s: A.AssignStmt): void {
    if (s.name === 'self') return this.error(s.pos, 'cannot assign to "self": it is the name of the object');
    const slot = this.resolve(s.name);
    if (!slot) return this.error(s.pos, `cannot assign to "${s.spelled}"`);
    if (this.cx.builtinIndex.has(s.name) && slot.where === 'local') {
      // a local named like a builtin is allowed, calls still reach the builtin
    }
    if (slot.where === 'local') {
      this.exprInto(s.value, slot.reg, true);
      this.markAssigned(s.name);
    } else {
      const r = this.exprAny(s.value);
      this.pos = s.pos;
      if (slot.where === 'global') this.emit(Op.SETG, slot.index, r);
      else this.emit(Op.SETP, slot.index, r);
    }
  }

  private markAssigned(name: string): void {
    this.definite.add(name);
    this.seenAssigned.add(name);
  }

  private exprStmt(s: A.ExprStmt): void {
    if (s.expr.type === 'binary' && s.expr.op === '=' && s.expr.left.type === 'self') {
      this.error(s.pos, 'cannot assign to "self": it is the name of the object');
      return;
    }
    if (!CALLS_ALLOWED_AS_STATEMENT.has(s.expr.type)) {
      this.error(s.pos, 'this line computes a value but does nothing with it (did you mean to assign it, or to call a handler?)');
      return;
    }
    this.exprAny(s.expr);
  }

  /** Run `body` with a copy of the definite-assignment set, restoring it afterwards. */
  private scoped(body: () => void): void {
    const saved = new Set(this.definite);
    body();
    this.definite = saved;
  }

  private ifStmt(s: A.IfStmt): void {
    const ends: number[] = [];
    for (let i = 0; i < s.branches.length; i++) {
      const b = s.branches[i];
      this.pos = b.pos;
      const falseJumps = this.cond(b.cond);
      this.scoped(() => this.block(b.body));
      const last = i === s.branches.length - 1 && !s.elseBody;
      if (!last) {
        this.emit(Op.JMP, 0);
        ends.push(this.code.length - 1);
      }
      this.patch(falseJumps, this.code.length);
    }
    if (s.elseBody) {
      const body = s.elseBody;
      this.scoped(() => this.block(body));
    }
    this.patch(ends, this.code.length);
  }

  private whileStmt(s: A.WhileStmt): void {
    const start = this.code.length;
    this.pos = s.pos;
    const exits = this.cond(s.cond);
    const loop: LoopCtx = { breaks: [], continues: [] };
    this.loops.push(loop);
    this.loopDepth++;
    this.scoped(() => this.block(s.body));
    this.loopDepth--;
    this.loops.pop();
    this.pos = s.pos;
    const back = this.code.length;
    this.emit(Op.LOOP, start);
    this.patch(loop.continues, back);
    this.patch(exits, this.code.length);
    this.patch(loop.breaks, this.code.length);
  }

  private forStmt(s: A.ForStmt): void {
    const base = this.temps();
    const t = this.allocTemps(3);
    this.exprInto(s.from, t, false);
    this.exprInto(s.to, t + 1, false);
    if (s.step) this.exprInto(s.step, t + 2, false);
    else this.emit(Op.CONST, t + 2, this.k(1));
    this.pos = s.pos;
    const slot = this.resolve(s.var.name);
    if (!slot) return this.error(s.var.pos, `cannot use "${s.var.spelled}" as a loop variable`);
    // The counter lives in t; the loop variable is a copy, so changing it in the body
    // does not change how many times the loop runs.
    const varReg = slot.where === 'local' ? slot.reg : this.allocTemps(1);
    const prep = this.code.length;
    this.emit(Op.FORPREP, t, 0);
    const bodyStart = this.code.length;
    if (slot.where === 'local') this.emit(Op.MOVE, varReg, t);
    else if (slot.where === 'global') this.emit(Op.SETG, slot.index, t);
    else this.emit(Op.SETP, slot.index, t);
    const loop: LoopCtx = { breaks: [], continues: [] };
    this.loops.push(loop);
    this.loopDepth++;
    this.scoped(() => {
      this.markAssigned(s.var.name);
      this.block(s.body);
    });
    this.loopDepth--;
    this.loops.pop();
    this.pos = s.pos;
    const cont = this.code.length;
    this.emit(Op.FORLOOP, t, bodyStart, varReg);
    this.patch(loop.continues, cont);
    this.code[prep + 2] = this.code.length;
    this.patch(loop.breaks, this.code.length);
    this.markAssigned(s.var.name);
    this.definite.delete(s.var.name); // zero iterations leave it unassigned
    this.freeTemps(base);
  }

  /** Compile a condition; returns the jump operands to patch to the false branch. */
  private cond(e: A.Expr): number[] {
    const base = this.temps();
    const jumps: number[] = [];
    if (e.type === 'binary') {
      const op = e.op;
      if (op === '<' || op === '<=' || op === '>' || op === '>=') {
        const a = this.exprAny(e.left);
        const b = this.exprAny(e.right);
        this.pos = e.pos;
        this.emit(COMPARE_JUMPS[op], a, b, 0);
        jumps.push(this.code.length - 1);
        this.freeTemps(base);
        return jumps;
      }
      if (op === '=' && (e.right.type === 'number' || e.right.type === 'string')) {
        const a = this.exprAny(e.left);
        this.pos = e.pos;
        this.emit(Op.EQKJ, a, this.k(e.right.value), 0);
        jumps.push(this.code.length - 1);
        this.freeTemps(base);
        return jumps;
      }
      if (op === 'and') {
        jumps.push(...this.cond(e.left));
        jumps.push(...this.cond(e.right));
        return jumps;
      }
    }
    const r = this.exprAny(e);
    this.pos = e.pos;
    this.emit(Op.JMPF, r, 0);
    jumps.push(this.code.length - 1);
    this.freeTemps(base);
    return jumps;
  }

  // ---- expressions --------------------------------------------------------

  /** Evaluate e into some register (a local's own register when e is that local). */
  private exprAny(e: A.Expr): number {
    if (e.type === 'name') {
      const slot = this.resolve(e.name);
      if (slot && slot.where === 'local') {
        this.checkRead(e, slot.reg);
        return slot.reg;
      }
    }
    const r = this.allocTemps(1);
    this.exprInto(e, r, false);
    return r;
  }

  /**
   * Evaluate e into register `dst`. When dst is a named variable (`named`), forms that
   * write dst before reading all their operands go through a temporary first.
   */
  private exprInto(e: A.Expr, dst: number, named: boolean): void {
    this.pos = e.pos;
    switch (e.type) {
      case 'number':
      case 'string':
      case 'bool':
        this.emit(Op.CONST, dst, this.k(e.value));
        return;
      case 'void':
        this.emit(Op.CONST, dst, this.k(null));
        return;
      case 'self':
        if (!this.object) return this.error(e.pos, '"self" is only meaningful inside a set, actor, prop or flat block');
        this.emit(Op.SELF, dst);
        return;
      case 'name':
        return this.nameInto(e, dst);
      case 'list': {
        const base = this.temps();
        const first = this.allocTemps(e.items.length);
        e.items.forEach((item, i) => this.exprInto(item, first + i, false));
        this.pos = e.pos;
        this.emit(Op.LIST, dst, first, e.items.length);
        this.freeTemps(base);
        return;
      }
      case 'index': {
        const base = this.temps();
        const t = this.exprAny(e.target);
        const i = this.exprAny(e.index);
        this.pos = e.pos;
        this.emit(Op.INDEX, dst, t, i);
        this.freeTemps(base);
        return;
      }
      case 'unary': {
        const base = this.temps();
        if (e.op === '-' && e.operand.type === 'number') {
          this.emit(Op.CONST, dst, this.k(-e.operand.value));
          return;
        }
        const r = this.exprAny(e.operand);
        this.pos = e.pos;
        this.emit(e.op === '-' ? Op.NEG : Op.NOT, dst, r);
        this.freeTemps(base);
        return;
      }
      case 'binary':
        return this.binaryInto(e, dst, named);
      case 'call':
        return this.callInto(e, dst);
    }
  }

  private nameInto(e: A.NameRef, dst: number): void {
    const slot = this.resolve(e.name);
    if (!slot) return this.unknownName(e.name, e.spelled, e.pos, false);
    if (slot.where === 'local') {
      this.checkRead(e, slot.reg);
      if (slot.reg !== dst) this.emit(Op.MOVE, dst, slot.reg);
    } else if (slot.where === 'global') {
      this.emit(Op.GETG, dst, slot.index);
    } else {
      this.emit(Op.GETP, dst, slot.index);
    }
  }

  private checkRead(e: A.NameRef, reg: number): void {
    if (this.definite.has(e.name)) return;
    if (!this.seenAssigned.has(e.name) && this.loopDepth === 0) {
      this.error(e.pos, `"${e.spelled}" is read before it is assigned`);
      return;
    }
    const saved = this.pos;
    this.pos = e.pos;
    this.emit(Op.CHECK, reg, this.k(e.spelled));
    this.pos = saved;
  }

  private binaryInto(e: A.BinaryExpr, dst: number, named: boolean): void {
    const base = this.temps();
    if (e.op === 'and' || e.op === 'or') {
      // Short-circuit: the result is a boolean.
      const target = named ? this.allocTemps(1) : dst;
      const l = this.exprAny(e.left);
      this.pos = e.pos;
      this.emit(Op.TRUTH, target, l);
      this.emit(e.op === 'and' ? Op.JMPF : Op.JMPT, target, 0);
      const j = this.code.length - 1;
      const r = this.exprAny(e.right);
      this.pos = e.pos;
      this.emit(Op.TRUTH, target, r);
      this.code[j] = this.code.length;
      if (target !== dst) this.emit(Op.MOVE, dst, target);
      this.freeTemps(base);
      return;
    }
    if (e.op === '+' && e.right.type === 'number') {
      const l = this.exprAny(e.left);
      this.pos = e.pos;
      this.emit(Op.ADDK, dst, l, this.k(e.right.value));
      this.freeTemps(base);
      return;
    }
    const l = this.exprAny(e.left);
    const r = this.exprAny(e.right);
    this.pos = e.pos;
    this.emit(BINARY_OPS[e.op], dst, l, r);
    this.freeTemps(base);
  }

  private callInto(e: A.CallExpr, dst: number): void {
    const base = this.temps();
    const target = this.findCallee(e.name);
    if (!target) {
      for (const a of e.args) this.exprAny(a); // still check the arguments
      this.freeTemps(base);
      return this.unknownName(e.name, e.spelled, e.pos, true);
    }
    const n = e.args.length;
    if (target.kind === 'handler') {
      const h = target.params;
      if (n !== h) {
        this.error(e.pos, `"${e.spelled}" takes ${plural(h, 'argument')}, but ${n} ${n === 1 ? 'was' : 'were'} given`);
      }
    } else {
      const b = this.cx.builtins[target.index];
      const ar = arityOf(b);
      if (n < ar.min || n > ar.max) {
        const want = ar.max === Infinity ? `at least ${ar.min}` : ar.min === ar.max ? `${ar.min}` : `${ar.min} to ${ar.max}`;
        this.error(e.pos, `${b.name} takes ${want} argument${want === '1' ? '' : 's'} (${b.name} (${b.params.join(', ')})), but ${n} ${n === 1 ? 'was' : 'were'} given`);
      }
    }
    const first = this.allocTemps(Math.max(n, 1));
    e.args.forEach((a, i) => this.exprInto(a, first + i, false));
    this.pos = e.pos;
    if (target.kind === 'handler') this.emit(Op.CALL, dst, target.index, first, n);
    else this.emit(Op.CALLB, dst, target.index, first, n);
    this.freeTemps(base);
  }

  private findCallee(name: string): { kind: 'handler'; index: number; params: number } | { kind: 'builtin'; index: number } | null {
    const p = this.cx.program;
    if (this.object) {
      const h = this.object.handlers[name];
      if (h !== undefined) return { kind: 'handler', index: h, params: this.paramsOf(h) };
    }
    const g = p.globalHandlers[name];
    if (g !== undefined) return { kind: 'handler', index: g, params: this.paramsOf(g) };
    const b = this.cx.builtinIndex.get(name);
    if (b !== undefined) return { kind: 'builtin', index: b };
    return null;
  }

  private paramsOf(h: number): number {
    return this.cx.paramCounts[h];
  }

  private unknownName(name: string, spelled: string, pos: A.Pos, call: boolean): void {
    const p = this.cx.program;
    if (!call && (p.globalHandlers[name] !== undefined || this.cx.builtinIndex.has(name) || (this.object && this.object.handlers[name] !== undefined))) {
      return this.error(pos, `"${spelled}" is a handler: call it with parentheses, e.g. ${spelled} ()`);
    }
    const candidates = new Set<string>();
    if (call) {
      for (const b of this.cx.builtins) candidates.add(b.name);
      for (const h of Object.keys(p.globalHandlers)) candidates.add(h);
      if (this.object) for (const h of Object.keys(this.object.handlers)) candidates.add(h);
    } else {
      for (const n of this.locals.keys()) candidates.add(n);
      for (const n of this.handlerGlobals) candidates.add(n);
      for (const n of this.fileGlobals) candidates.add(n);
      if (this.object) for (const n of this.object.properties) candidates.add(n);
    }
    const guess = closest(name, candidates);
    const what = call ? 'handler or builtin' : 'variable';
    this.error(pos, `unknown ${what} "${spelled}"${guess ? ` — did you mean "${guess}"?` : ''}`);
  }

  // ---- emission helpers ---------------------------------------------------

  private emit(op: Op, ...operands: number[]): void {
    const at = this.code.length;
    this.code.push(op, ...operands);
    for (let i = 0; i <= operands.length; i++) {
      this.lines[at + i] = this.pos.line;
      this.cols[at + i] = this.pos.col;
    }
    if (operands.length !== OPS[op].operands.length) throw new Error(`internal: ${OPS[op].name} operand count`);
  }

  private patch(slots: number[], target: number): void {
    for (const s of slots) this.code[s] = target;
  }

  private k(v: Value): number {
    // one table per type, so 1 and "1" stay two constants without building string keys
    const table = typeof v === 'number' ? this.numConsts : typeof v === 'string' ? this.strConsts : this.otherConsts;
    let i = table.get(v as never);
    if (i === undefined) {
      i = this.consts.length;
      this.consts.push(v);
      table.set(v as never, i);
    }
    return i;
  }

  private temps(): number {
    return this.nextReg;
  }

  private allocTemps(n: number): number {
    const r = this.nextReg;
    this.nextReg += n;
    if (this.nextReg > this.maxReg) this.maxReg = this.nextReg;
    return r;
  }

  private freeTemps(base: number): void {
    const floor = this.localNames.length;
    this.nextReg = Math.max(base, floor);
  }

  private error(pos: A.Pos, message: string): void {
    this.cx.diagnostics.push({ kind: 'error', file: this.file.file, line: pos.line, col: pos.col, length: 1, message });
  }
}

const COMPARE_JUMPS: Record<'<' | '<=' | '>' | '>=', Op> = { '<': Op.LTJ, '<=': Op.LEJ, '>': Op.GTJ, '>=': Op.GEJ };

const BINARY_OPS: Record<string, Op> = {
  '=': Op.EQ,
  '<>': Op.NE,
  '<': Op.LT,
  '<=': Op.LE,
  '>': Op.GT,
  '>=': Op.GE,
  '..': Op.CAT,
  '+': Op.ADD,
  '-': Op.SUB,
  '*': Op.MUL,
  '/': Op.DIV,
  mod: Op.MOD,
};

export function globalIndex(p: Program, name: string): number {
  let i = p.globals.indexOf(name);
  if (i < 0) {
    i = p.globals.length;
    p.globals.push(name);
  }
  return i;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
