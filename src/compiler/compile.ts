// AST → register bytecode. One HandlerCode per handler; every instruction keeps the
// source position it came from so errors and the disassembler can name it.
import type * as A from '../../grammar/ast.ts';
import { Op, OPS, OPERAND_COUNT, SEND_KINDS, type OperandKind } from '../vm/opcodes.ts';
import { MAX_STRING, type Value } from '../vm/value.ts';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { closest } from '../errors/suggest.ts';
import { arityOf, type Signature, type SignatureTable } from '../signatures/table.ts';
import type { HandlerCode, ObjectInfo, Program } from '../vm/program.ts';
import { emptyProgram } from '../vm/program.ts';

/**
 * Where a name resolved to, packed in one number so that resolving a name allocates
 * nothing: the low two bits say the scope, the rest is the register or index.
 * NOT_FOUND is negative.
 */
const LOCAL = 0;
const GLOBAL = 1;
const PROPERTY = 2;
const NOT_FOUND = -1;
const slotWhere = (slot: number): number => slot & 3;
const slotIndex = (slot: number): number => slot >> 2;

/**
 * The words of every handler of one compilation, emitted back to back into one
 * growable buffer, with the source line and column of each word beside them. Once
 * every handler is compiled, `seal` hands every handler views of its stretch: three
 * array buffers per compilation instead of three per handler.
 */
class CodeBuffer {
  code: Int32Array;
  /** Source line and column of each word: an instruction's position, on all its words (empty when not kept). */
  lines: Int32Array;
  cols: Int32Array;
  length = 0;
  /** Every claimed handler, with where its words start and end. */
  private readonly claimed: HandlerCode[] = [];
  private readonly bounds: number[] = [];
  private readonly scratch = [new Uint8Array(64), new Uint8Array(64)];

  /** @param positions whether each word's source position is kept (a program only checked, never run, needs none) */
  constructor(
    capacity: number,
    readonly positions = true,
  ) {
    capacity = Math.max(capacity, 64);
    this.code = new Int32Array(capacity);
    this.lines = positions ? new Int32Array(capacity) : NO_CODE;
    this.cols = positions ? new Int32Array(capacity) : NO_CODE;
  }

  /** Makes room for at least `n` more words. */
  grow(n: number): void {
    let size = this.code.length * 2;
    while (size < this.length + n) size *= 2;
    this.code = grown(this.code, size, this.length);
    if (!this.positions) return;
    this.lines = grown(this.lines, size, this.length);
    this.cols = grown(this.cols, size, this.length);
  }

  /**
   * Scratch flags, one per register, all clear: `which` picks one of two sets. The
   * handler being compiled owns them until the next handler asks.
   */
  flags(which: 0 | 1, n: number): Uint8Array {
    let f = this.scratch[which];
    if (f.length < n) f = this.scratch[which] = new Uint8Array(Math.max(n, f.length * 2));
    // a loop: handlers have a few registers, and fill () is a call into the runtime
    else for (let i = 0; i < n; i++) f[i] = 0;
    return f;
  }

  /** Replaces every operand of `kind` (say, every global index) in the code so far by its image under `map`. */
  mapOperands(kind: OperandKind, map: ArrayLike<number>): void {
    const code = this.code;
    const n = this.length;
    const at: number[][] = OPS.map((o) => o.operands.flatMap((k, i) => (k === kind ? [i + 1] : [])));
    for (let pc = 0; pc < n; pc += 1 + OPERAND_COUNT[code[pc]]) {
      const words = at[code[pc]];
      for (let i = 0; i < words.length; i++) code[pc + words[i]] = map[code[pc + words[i]]];
    }
  }

  /** `h` gets the words from `start` to the current end when the buffer is sealed. */
  claim(h: HandlerCode, start: number): void {
    this.claimed.push(h);
    this.bounds.push(start, this.length);
  }

  /** Gives every claimed handler its code, lines and columns; the buffer is spent afterwards. */
  seal(): void {
    // a buffer mostly used is kept as it is (its untouched end costs address space only)
    const n = this.length;
    const exact = this.positions && n * 4 < this.code.length * 3;
    this.hand(exact ? this.code.slice(0, n) : this.code, exact ? this.lines.slice(0, n) : this.lines, exact ? this.cols.slice(0, n) : this.cols);
  }

  /** Gives each claimed handler its views. */
  private hand(code: Int32Array, lines: Int32Array, cols: Int32Array): void {
    const claimed = this.claimed;
    const bounds = this.bounds;
    for (let i = 0; i < claimed.length; i++) {
      const start = bounds[2 * i];
      const end = bounds[2 * i + 1];
      const h = claimed[i];
      h.code = code.subarray(start, end);
      h.lines = this.positions ? lines.subarray(start, end) : NO_CODE;
      h.cols = this.positions ? cols.subarray(start, end) : NO_CODE;
    }
    claimed.length = 0;
    bounds.length = 0;
  }
}

function grown(a: Int32Array, size: number, used: number): Int32Array {
  const b = new Int32Array(size);
  b.set(a.subarray(0, used));
  return b;
}

/**
 * Told where the names in handler bodies resolve, for the lints and the language
 * server; a compilation without one pays a single check per name.
 */
export interface NameUses {
  /** The body of `h` (null: an object's property initialisers) of `object` (null: global) follows. */
  handler(file: A.ScriptFile, h: A.Handler | null, object: ObjectInfo | null): void;
  /** A variable read or written (a parameter is written where it is declared). */
  variable(scope: 'local' | 'global' | 'property', name: string, pos: A.Pos, write: boolean): void;
  /** A call and the handler it reaches; null for a builtin or a name already reported unknown. */
  call(name: string, pos: A.Pos, to: HandlerCode | null): void;
}

const SCOPE_NAMES = ['local', 'global', 'property'] as const;

export interface CompileContext {
  builtins: readonly Signature[];
  builtinIndex: ReadonlyMap<string, number>;
  diagnostics: Diagnostic[];
  /** Program under construction (handlers/globals appended as they are compiled). */
  program: Program;
  /** Parameter count of every declared handler, by index, including ones not compiled yet. */
  paramCounts: number[];
  /** Global name → index into program.globals, kept in step with it by globalIndex. */
  globalIndex: Map<string, number>;
  /** Where every handler of this compilation is emitted. */
  out: CodeBuffer;
  /**
   * Every handler of the compilation is declared: calls resolve as they compile. When
   * not (handlers compiled as they are read), what a later declaration could change
   * waits in `later` for `resolveLater`.
   */
  declared: boolean;
  later: Later;
  uses?: NameUses;
}

/**
 * What a handler compiled before the rest are declared leaves open: calls that a later
 * handler may answer (or shadow, for a global handler called from an object), and
 * unknown variables that a later handler would explain.
 */
class Later {
  /** Per call: the word of its handler operand, and what names and checks it. */
  readonly calls: { at: number; name: string; spelled: string; pos: A.Pos; args: number; object: ObjectInfo | null; file: string }[] = [];
  /** Per unknown variable: its message, unless a handler turns out to have the name. */
  readonly names: { name: string; spelled: string; pos: A.Pos; object: ObjectInfo | null; file: string; message: string }[] = [];
}

/** Settles what `later` holds, once every handler is declared: patches calls and reports what is still wrong. */
export function resolveLater(cx: CompileContext): void {
  cx.declared = true;
  const code = cx.out.code;
  const err = (file: string, pos: A.Pos, message: string): number => cx.diagnostics.push({ kind: 'error', file, line: pos.line, col: pos.col, length: 1, message });
  for (const c of cx.later.calls) {
    const own = c.object !== null ? c.object.handlers[c.name] : undefined;
    const handler = own ?? cx.program.globalHandlers[c.name];
    if (handler === undefined) err(c.file, c.pos, unknownCallMessage(cx, c.object, c.name, c.spelled));
    else {
      code[c.at] = handler;
      if (c.args !== cx.paramCounts[handler]) err(c.file, c.pos, arityMessage(c.spelled, cx.paramCounts[handler], c.args));
    }
  }
  for (const u of cx.later.names) err(u.file, u.pos, isHandlerName(cx, u.object, u.name) ? handlerAsVariableMessage(u.spelled) : u.message);
  cx.later = new Later();
}

function isHandlerName(cx: CompileContext, object: ObjectInfo | null, name: string): boolean {
  return cx.program.globalHandlers[name] !== undefined || cx.builtinIndex.has(name) || (object !== null && object.handlers[name] !== undefined);
}

function handlerAsVariableMessage(spelled: string): string {
  return `"${spelled}" is a handler: call it with parentheses, e.g. ${spelled} ()`;
}

function arityMessage(spelled: string, want: number, n: number): string {
  return `"${spelled}" takes ${plural(want, 'argument')}, but ${n} ${n === 1 ? 'was' : 'were'} given`;
}

function unknownCallMessage(cx: CompileContext, object: ObjectInfo | null, name: string, spelled: string): string {
  return unknownMessage('handler or builtin', spelled, closest(name, callableNames(cx, object)));
}

/** Every name a call could mean, read as it is guessed from (a program of many handlers is not copied for it). */
function* callableNames(cx: CompileContext, object: ObjectInfo | null): Iterable<string> {
  for (const b of cx.builtins) yield b.name;
  for (const h in cx.program.globalHandlers) yield h;
  if (object) for (const h in object.handlers) yield h;
}

function unknownMessage(what: string, spelled: string, guess: string | null | undefined): string {
  return `unknown ${what} "${spelled}"${guess ? ` — did you mean "${guess}"?` : ''}`;
}

/**
 * A compile context over `program`; the caller seals `out` once every handler is
 * compiled. `declared`: see CompileContext (false: the caller calls resolveLater).
 */
export function compileContext(program: Program, builtins: SignatureTable, diagnostics: Diagnostic[], sourceChars: number, declared = true, positions = true): CompileContext {
  const paramCounts = new Array<number>(program.handlers.length);
  for (let i = 0; i < program.handlers.length; i++) paramCounts[i] = program.handlers[i].params;
  const globals = new Map<string, number>();
  for (let i = 0; i < program.globals.length; i++) if (!globals.has(program.globals[i])) globals.set(program.globals[i], i);
  // scripts come to about one word of code for every three to five characters of source
  const out = new CodeBuffer(Math.ceil(sourceChars / 2.5), positions);
  return { builtins: builtins.list, builtinIndex: builtins.index, diagnostics, program, paramCounts, globalIndex: globals, out, declared, later: new Later() };
}

/** Constants are looked up by scanning the table while it is this small, then through a map. */
const LINEAR_CONSTS = 16;

function operandCount(op: Op): Error {
  return new Error(`internal: ${OPS[op].name} operand count`);
}

const NO_CODE = new Int32Array(0);
// a placeholder's lists until its handler is compiled (finish gives it its own)
const NO_CONSTS: Value[] = [];
const NO_LOCALS: string[] = [];
const NO_FLAGS = new Uint8Array(0);
const NO_POS: A.Pos = { line: 0, col: 0 };
const NO_NAMES: ReadonlySet<string> = new Set();

/** Locals are looked up by scanning their names while a handler has this few. */
const LINEAR_LOCALS = 8;

let sharedCompiler: HandlerCompiler | null = null;
let idle: CompileContext | null = null;

/**
 * The process's handler compiler, pointed at `cx`; call `release` on it when the
 * compilation is done. One compiler for the process rather than one per compilation:
 * V8 throws optimised code away when an object it holds on to dies, and the compiler's
 * optimised methods held on to their compiler. With a compiler per compilation, every
 * compilation after the first ran them unoptimised again (up to three times slower).
 */
export function handlerCompiler(cx: CompileContext): HandlerCompiler {
  return sharedCompiler === null ? (sharedCompiler = new HandlerCompiler(cx)) : sharedCompiler.use(cx);
}

/** A context with nothing in it, for a compiler between compilations. */
function idleContext(): CompileContext {
  return (idle ??= {
    builtins: [],
    builtinIndex: new Map(),
    diagnostics: [],
    program: emptyProgram(),
    paramCounts: [],
    globalIndex: new Map(),
    out: new CodeBuffer(16),
    declared: true,
    later: new Later(),
  });
}

/** A handler record; compileFiles makes one per declared handler before any is compiled. */
export function newHandlerCode(name: string, spelled: string, object: number, params: number, file: string, pos: A.Pos, noLoopCheck: boolean): HandlerCode {
  return {
    name,
    spelled,
    object,
    params,
    registers: 1,
    code: NO_CODE,
    consts: NO_CONSTS,
    lines: NO_CODE,
    cols: NO_CODE,
    file,
    line: pos.line,
    col: pos.col,
    localNames: NO_LOCALS,
    noLoopCheck,
  };
}

/**
 * Compiles handlers one after another into the compilation's code buffer. One compiler
 * serves every compilation of the process (see `handlerCompiler`): `begin` clears what
 * belongs to one handler, so its tables and stacks are allocated once rather than for
 * every handler.
 */
class HandlerCompiler {
  private cx: CompileContext;
  private out: CodeBuffer;
  private file: A.ScriptFile | null = null;
  private fileGlobals: ReadonlySet<string> = NO_NAMES;
  private object: ObjectInfo | null = null;
  private objectIndex = -1;
  /** Where this handler's words start in `out`; jump targets are relative to it. */
  private start = 0;
  private consts: Value[] = [];
  private constIndex: Map<Value, number> | null = null;
  /** Name of each local's register (params first); scanned while short, then indexed. */
  private localNames: string[] = [];
  private localIndex: Map<string, number> | null = null;
  private handlerGlobals: Set<string> | null = null;
  private nextReg = 0;
  private maxReg = 0;
  private pos: A.Pos = NO_POS;
  /**
   * Locals (by register) certainly assigned at this point on every path, so no runtime
   * check is needed. Branches and loop bodies undo what they add through `trail`: an
   * entry r ≥ 0 was set, ~r was cleared.
   */
  private definite: Uint8Array = NO_FLAGS;
  private readonly trail: number[] = [];
  /** Names assigned in the handler, collected by `scan`. */
  private readonly assigned: string[] = [];
  /** Locals (by register) assigned somewhere textually before this point. */
  private seenAssigned: Uint8Array = NO_FLAGS;
  private loopDepth = 0;
  private paramCount = 0;
  // Jump operands waiting for their target, as stacks: each statement patches and drops
  // what it pushed before it returns, so an enclosing one finds its own entries on top.
  /** to the false branch of a condition */
  private readonly falseJumps: number[] = [];
  /** to the end of an if statement */
  private readonly endJumps: number[] = [];
  /** to the exit of the innermost loop */
  private readonly breaks: number[] = [];
  /** to the continue point of the innermost loop */
  private readonly continues: number[] = [];
  /** The left spines of binary expressions being compiled, innermost on top. */
  private readonly spines: A.BinaryExpr[] = [];

  constructor(cx: CompileContext) {
    this.cx = cx;
    this.out = cx.out;
  }

  /** Points the compiler at another compilation. */
  use(cx: CompileContext): this {
    this.cx = cx;
    this.out = cx.out;
    return this;
  }

  /** Lets go of the finished compilation (its program, its scripts' trees). */
  release(): void {
    this.use(idleContext());
    this.file = null;
    this.fileGlobals = NO_NAMES;
    this.object = null;
    this.consts = [];
    this.constIndex = null;
    this.localNames = [];
    this.localIndex = null;
    this.handlerGlobals = null;
    this.pos = NO_POS;
    this.definite = NO_FLAGS;
    this.seenAssigned = NO_FLAGS;
  }

  /** Starts a handler of `object` (null for a global handler) in `file`. */
  begin(file: A.ScriptFile, fileGlobals: ReadonlySet<string>, object: ObjectInfo | null, objectIndex: number): this {
    this.file = file;
    this.fileGlobals = fileGlobals;
    this.object = object;
    this.objectIndex = objectIndex;
    this.start = this.out.length;
    this.consts = [];
    this.constIndex = null;
    this.localNames = [];
    this.localIndex = null;
    this.handlerGlobals = null;
    this.nextReg = 0;
    this.maxReg = 0;
    this.pos = NO_POS;
    this.definite = NO_FLAGS;
    this.seenAssigned = NO_FLAGS;
    this.loopDepth = 0;
    this.paramCount = 0;
    // Truncating an array is a runtime call, popping is not. The other stacks are left
    // over only when the previous handler failed half-way.
    while (this.trail.length > 0) this.trail.pop();
    if (this.assigned.length > 0) this.assigned.length = 0;
    if (this.spines.length > 0) this.spines.length = 0;
    if (this.falseJumps.length > 0) this.falseJumps.length = 0;
    if (this.endJumps.length > 0) this.endJumps.length = 0;
    if (this.breaks.length > 0) this.breaks.length = 0;
    if (this.continues.length > 0) this.continues.length = 0;
    return this;
  }

  /** Compiles `h`; into `into` when given (its placeholder), else into a new HandlerCode. */
  compileHandler(h: A.Handler, replEcho = false, into?: HandlerCode): HandlerCode {
    const uses = this.cx.uses;
    if (uses !== undefined) uses.handler(this.file!, h, this.object);
    for (let i = 0; i < h.params.length; i++) {
      const p = h.params[i];
      if (this.localReg(p.name) >= 0) this.error(p.pos, `parameter "${p.spelled}" is named twice`);
      this.declareLocal(p.name);
      if (uses !== undefined) uses.variable('local', p.name, p.pos, true);
    }
    const params = this.nextReg;
    this.paramCount = params;
    // Pre-scan: `global` statements anywhere in the handler apply to the whole handler,
    // and every name assigned in it (and not global/property) is a local.
    // Which assigned names are locals is decided once every `global` is known.
    const assigned = this.assigned;
    this.scan(h.body);
    for (let i = 0; i < assigned.length; i++) this.maybeLocal(assigned[i]);
    while (assigned.length > 0) assigned.pop(); // pops are cheaper than truncating
    this.definite = this.out.flags(0, this.nextReg);
    this.seenAssigned = this.out.flags(1, this.nextReg);
    for (let r = 0; r < params; r++) {
      this.definite[r] = 1;
      this.seenAssigned[r] = 1;
    }
    this.pos = h.pos;
    const body = h.body;
    if (replEcho && body.length > 0 && body[body.length - 1].type === 'expr') {
      this.block(body, body.length - 1);
      const last = body[body.length - 1] as A.ExprStmt;
      this.pos = last.pos;
      const r = this.exprAny(last.expr);
      this.emit1(Op.RET, r);
    } else {
      this.block(body, body.length);
    }
    // (the closing return stands on the handler's `end`: a step out through it stops there)
    return this.finish(h.name, h.spelled, params, h.pos, h.noLoopCheck, into, h.endPos);
  }

  /** Closes the code with a return and packs it as an immutable handler. */
  private finish(name: string, spelled: string, params: number, pos: A.Pos, noLoopCheck: boolean, into?: HandlerCode, end: A.Pos = pos): HandlerCode {
    this.pos = end;
    this.emit0(Op.RETV);
    // the words arrive when the compilation's code buffer is sealed
    // a placeholder (`into`) was made by the linker with the same name, object, params and place
    const h = into ?? newHandlerCode(name, spelled, this.objectIndex, params, this.file!.file, pos, noLoopCheck);
    h.registers = Math.max(this.maxReg, 1);
    h.consts = this.consts;
    h.localNames = this.localNames;
    this.out.claim(h, this.start);
    return h;
  }

  /** Property initialisers of an object, compiled as one handler run at load time. */
  compileInit(props: A.PropertyDecl[], pos: A.Pos): HandlerCode {
    if (this.cx.uses !== undefined) this.cx.uses.handler(this.file!, null, this.object);
    for (const p of props) {
      if (!p.init) continue;
      this.pos = p.pos;
      const idx = this.propertyIndex(p.name);
      const r = this.exprAny(p.init);
      this.emit2(Op.SETP, idx, r);
      this.freeTemps(0);
    }
    return this.finish('(properties)', '(properties)', 0, pos, false);
  }

  // ---- declarations -------------------------------------------------------

  /** Notes the handler's `global` names, and every name it assigns, in textual order, in `assigned`. */
  private scan(stmts: A.Stmt[]): void {
    for (let i = 0; i < stmts.length; i++) {
      const s = stmts[i];
      switch (s.type) {
        case 'assign':
          this.assigned.push(s.name);
          break;
        case 'global':
          for (let j = 0; j < s.names.length; j++) {
            (this.handlerGlobals ??= new Set()).add(s.names[j].name);
            globalIndex(this.cx, s.names[j].name);
          }
          break;
        case 'if':
          for (let j = 0; j < s.branches.length; j++) this.scan(s.branches[j].body);
          if (s.elseBody) this.scan(s.elseBody);
          break;
        case 'for':
          this.assigned.push(s.var.name);
          this.scan(s.body);
          break;
        case 'while':
          this.scan(s.body);
          break;
      }
    }
  }

  private maybeLocal(name: string): void {
    if (name === 'self' || this.localReg(name) >= 0) return;
    if (this.isGlobalName(name) || this.propertyIndex(name) >= 0) return;
    this.declareLocal(name);
  }

  private declareLocal(name: string): number {
    const r = this.nextReg++;
    this.maxReg = Math.max(this.maxReg, this.nextReg);
    this.localNames[r] = name;
    if (this.localIndex !== null) this.localIndex.set(name, r);
    else if (r >= LINEAR_LOCALS) {
      // a later register of the same name (a parameter named twice) wins, as in a scan from the end
      this.localIndex = new Map();
      for (let i = 0; i <= r; i++) this.localIndex.set(this.localNames[i], i);
    }
    return r;
  }

  /** The register of local (or parameter) `name`, or -1. */
  private localReg(name: string): number {
    if (this.localIndex !== null) {
      const r = this.localIndex.get(name);
      return r === undefined ? -1 : r;
    }
    const names = this.localNames;
    for (let r = names.length - 1; r >= 0; r--) if (names[r] === name) return r;
    return -1;
  }

  private isGlobalName(name: string): boolean {
    return this.handlerGlobals?.has(name) || (this.fileGlobals.has(name) && this.propertyIndex(name) < 0);
  }

  private propertyIndex(name: string): number {
    return this.object === null ? -1 : this.object.properties.indexOf(name);
  }

  /** The slot `name` resolves to (see LOCAL, GLOBAL, PROPERTY), or NOT_FOUND. */
  private resolve(name: string): number {
    const local = this.localReg(name);
    // Parameters and handler-level `global` shadow properties; properties shadow file globals.
    if (local >= 0 && local < this.paramCount) return (local << 2) | LOCAL;
    if (this.handlerGlobals?.has(name)) return (globalIndex(this.cx, name) << 2) | GLOBAL;
    const prop = this.propertyIndex(name);
    if (prop >= 0) return (prop << 2) | PROPERTY;
    if (this.fileGlobals.has(name)) return (globalIndex(this.cx, name) << 2) | GLOBAL;
    if (local >= 0) return (local << 2) | LOCAL;
    return NOT_FOUND;
  }

  // ---- statements ---------------------------------------------------------

  /** Compiles the first `count` statements of `stmts`. */
  private block(stmts: A.Stmt[], count: number): void {
    // temporaries live across the block (a for loop's counter) must survive its statements
    const base = this.temps();
    for (let i = 0; i < count; i++) {
      this.stmt(stmts[i]);
      this.freeTemps(base);
    }
  }

  /** Compiles a branch or loop body: what it makes definitely assigned holds only inside. */
  private scopedBlock(stmts: A.Stmt[]): void {
    const mark = this.trail.length;
    this.block(stmts, stmts.length);
    this.undoDefinite(mark);
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
        this.emit3(Op.SETINDEX, t, i, v);
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
      case 'break':
        if (this.loopDepth === 0) return this.error(s.pos, '"break" outside a loop');
        this.emit1(Op.JMP, 0);
        this.breaks.push(this.here() - 1);
        return;
      case 'continue':
        if (this.loopDepth === 0) return this.error(s.pos, '"continue" outside a loop');
        this.emit1(Op.JMP, 0);
        this.continues.push(this.here() - 1);
        return;
      case 'return':
        if (s.value) {
          const r = this.exprAny(s.value);
          this.pos = s.pos;
          this.emit1(Op.RET, r);
        } else {
          this.emit0(Op.RETV);
        }
        return;
      case 'global':
        return; // handled by scanDecls
    }
  }

  private assign(s: A.AssignStmt): void {
    if (s.name === 'self') return this.error(s.pos, 'cannot assign to "self": it is the name of the object');
    const slot = this.resolve(s.name);
    if (slot === NOT_FOUND) return this.error(s.pos, `cannot assign to "${s.spelled}"`);
    // a local named like a builtin is allowed, calls still reach the builtin
    const where = slotWhere(slot);
    if (this.cx.uses !== undefined) this.cx.uses.variable(SCOPE_NAMES[where], s.name, s.pos, true);
    if (where === LOCAL) {
      this.exprInto(s.value, slotIndex(slot), true);
      this.markAssigned(slotIndex(slot));
    } else {
      const r = this.exprAny(s.value);
      this.pos = s.pos;
      this.emit2(where === GLOBAL ? Op.SETG : Op.SETP, slotIndex(slot), r);
    }
  }

  private markAssigned(reg: number): void {
    if (this.definite[reg] === 0) {
      this.definite[reg] = 1;
      this.trail.push(reg);
    }
    this.seenAssigned[reg] = 1;
  }

  /** The local in `reg` may be unassigned from here on. */
  private clearDefinite(reg: number): void {
    if (this.definite[reg] === 1) {
      this.definite[reg] = 0;
      this.trail.push(~reg);
    }
  }

  /** Undoes the definite-assignment changes made since the trail was `mark` long. */
  private undoDefinite(mark: number): void {
    const trail = this.trail;
    while (trail.length > mark) {
      const e = trail.pop()!;
      if (e >= 0) this.definite[e] = 0;
      else this.definite[~e] = 1;
    }
  }

  private exprStmt(s: A.ExprStmt): void {
    if (s.expr.type === 'binary' && s.expr.op === '=' && s.expr.left.type === 'self') {
      this.error(s.pos, 'cannot assign to "self": it is the name of the object');
      return;
    }
    // only calls may stand alone as statements
    if (s.expr.type !== 'call') {
      this.error(s.pos, 'this line computes a value but does nothing with it (did you mean to assign it, or to call a handler?)');
      return;
    }
    this.exprAny(s.expr);
  }

  private ifStmt(s: A.IfStmt): void {
    const ends = this.endJumps.length;
    for (let i = 0; i < s.branches.length; i++) {
      const b = s.branches[i];
      this.pos = b.pos;
      const jumps = this.falseJumps.length;
      this.cond(b.cond);
      this.scopedBlock(b.body);
      const last = i === s.branches.length - 1 && !s.elseBody;
      if (!last) {
        this.emit1(Op.JMP, 0);
        this.endJumps.push(this.here() - 1);
      }
      this.patch(this.falseJumps, jumps, this.here());
    }
    if (s.elseBody) this.scopedBlock(s.elseBody);
    this.patch(this.endJumps, ends, this.here());
  }

  private whileStmt(s: A.WhileStmt): void {
    const start = this.here();
    this.pos = s.pos;
    const exits = this.falseJumps.length;
    this.cond(s.cond);
    const breaks = this.breaks.length;
    const continues = this.continues.length;
    this.loopDepth++;
    this.scopedBlock(s.body);
    this.loopDepth--;
    this.pos = s.pos;
    const back = this.here();
    this.emit1(Op.LOOP, start);
    this.patch(this.continues, continues, back);
    this.patch(this.falseJumps, exits, this.here());
    this.patch(this.breaks, breaks, this.here());
  }

  private forStmt(s: A.ForStmt): void {
    const base = this.temps();
    const t = this.allocTemps(3);
    this.exprInto(s.from, t, false);
    this.exprInto(s.to, t + 1, false);
    if (s.step) this.exprInto(s.step, t + 2, false);
    else this.emit2(Op.CONST, t + 2, this.k(1));
    this.pos = s.pos;
    const slot = this.resolve(s.var.name);
    if (slot === NOT_FOUND) return this.error(s.var.pos, `cannot use "${s.var.spelled}" as a loop variable`);
    const where = slotWhere(slot);
    if (this.cx.uses !== undefined) this.cx.uses.variable(SCOPE_NAMES[where], s.var.name, s.var.pos, true);
    // The counter lives in t; the loop variable is a copy, so changing it in the body
    // does not change how many times the loop runs.
    const varReg = where === LOCAL ? slotIndex(slot) : this.allocTemps(1);
    const prep = this.here();
    this.emit2(Op.FORPREP, t, 0);
    const bodyStart = this.here();
    if (where === LOCAL) this.emit2(Op.MOVE, varReg, t);
    else this.emit2(where === GLOBAL ? Op.SETG : Op.SETP, slotIndex(slot), t);
    const breaks = this.breaks.length;
    const continues = this.continues.length;
    this.loopDepth++;
    const mark = this.trail.length;
    if (where === LOCAL) this.markAssigned(varReg);
    this.block(s.body, s.body.length);
    this.undoDefinite(mark);
    this.loopDepth--;
    this.pos = s.pos;
    const cont = this.here();
    this.emit3(Op.FORLOOP, t, bodyStart, varReg);
    this.patch(this.continues, continues, cont);
    this.setWord(prep + 2, this.here());
    this.patch(this.breaks, breaks, this.here());
    if (where === LOCAL) {
      this.markAssigned(varReg);
      this.clearDefinite(varReg); // zero iterations leave it unassigned
    }
    this.freeTemps(base);
  }

  /** Compile a condition, pushing onto falseJumps the jump operands to patch to the false branch. */
  private cond(e: A.Expr): void {
    // `while true`: nothing to test, the loop only ends by break or return
    if (e.type === 'bool' && e.value) return;
    const jumps = this.falseJumps;
    const base = this.temps();
    if (e.type === 'binary') {
      const op = e.op;
      if (op === '<' || op === '<=' || op === '>' || op === '>=') {
        const a = this.exprAny(e.left);
        const b = this.exprAny(e.right);
        this.pos = e.pos;
        this.emit3(COMPARE_JUMPS[op], a, b, 0);
        jumps.push(this.here() - 1);
        this.freeTemps(base);
        return;
      }
      if (op === '=' && (e.right.type === 'number' || e.right.type === 'string')) {
        const a = this.exprAny(e.left);
        this.pos = e.pos;
        this.emit3(Op.EQKJ, a, this.k(e.right.value), 0);
        jumps.push(this.here() - 1);
        this.freeTemps(base);
        return;
      }
      if (op === 'and') {
        this.cond(e.left);
        this.cond(e.right);
        return;
      }
    }
    const r = this.exprAny(e);
    this.pos = e.pos;
    this.emit2(Op.JMPF, r, 0);
    jumps.push(this.here() - 1);
    this.freeTemps(base);
  }

  // ---- expressions --------------------------------------------------------

  /** Evaluate e into some register (a local's own register when e is that local). */
  private exprAny(e: A.Expr): number {
    if (e.type === 'name') {
      const slot = this.resolve(e.name);
      if (slot !== NOT_FOUND && slotWhere(slot) === LOCAL) {
        if (this.cx.uses !== undefined) this.cx.uses.variable('local', e.name, e.pos, false);
        this.checkRead(e, slotIndex(slot));
        return slotIndex(slot);
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
      case 'string':
        if (e.value.length > MAX_STRING) return this.error(e.pos, `string too long: ${e.value.length} characters (the limit is ${MAX_STRING})`);
        this.emit2(Op.CONST, dst, this.k(e.value));
        return;
      case 'number':
      case 'bool':
        this.emit2(Op.CONST, dst, this.k(e.value));
        return;
      case 'void':
        this.emit2(Op.CONST, dst, this.k(null));
        return;
      case 'self':
        if (!this.object) return this.error(e.pos, '"self" is only meaningful inside a set, actor, prop or flat block');
        this.emit1(Op.SELF, dst);
        return;
      case 'name':
        return this.nameInto(e, dst);
      case 'list': {
        const base = this.temps();
        const items = e.items;
        const first = this.allocTemps(items.length);
        for (let i = 0; i < items.length; i++) this.exprInto(items[i], first + i, false);
        this.pos = e.pos;
        this.emit3(Op.LIST, dst, first, items.length);
        this.freeTemps(base);
        return;
      }
      case 'index': {
        const base = this.temps();
        const t = this.exprAny(e.target);
        const i = this.exprAny(e.index);
        this.pos = e.pos;
        this.emit3(Op.INDEX, dst, t, i);
        this.freeTemps(base);
        return;
      }
      case 'unary': {
        const base = this.temps();
        if (e.op === '-' && e.operand.type === 'number') {
          this.emit2(Op.CONST, dst, this.k(-e.operand.value));
          return;
        }
        const r = this.exprAny(e.operand);
        this.pos = e.pos;
        this.emit2(e.op === '-' ? Op.NEG : Op.NOT, dst, r);
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
    if (slot === NOT_FOUND) return this.unknownVariable(e.name, e.spelled, e.pos);
    const where = slotWhere(slot);
    const index = slotIndex(slot);
    if (this.cx.uses !== undefined) this.cx.uses.variable(SCOPE_NAMES[where], e.name, e.pos, false);
    if (where === LOCAL) {
      this.checkRead(e, index);
      if (index !== dst) this.emit2(Op.MOVE, dst, index);
    } else if (where === GLOBAL) {
      this.emit2(Op.GETG, dst, index);
    } else {
      this.emit2(Op.GETP, dst, index);
    }
  }

  private checkRead(e: A.NameRef, reg: number): void {
    if (this.definite[reg] === 1) return;
    if (this.seenAssigned[reg] === 0 && this.loopDepth === 0) {
      this.error(e.pos, `"${e.spelled}" is read before it is assigned`);
      return;
    }
    const saved = this.pos;
    this.pos = e.pos;
    this.emit2(Op.CHECK, reg, this.k(e.spelled));
    this.pos = saved;
  }

  /**
   * A chain of binary operations. Operators are left-associative, so `a .. b .. c`
   * is a spine of nodes down the left: it is walked in a loop, not by recursion, so a
   * generated line of two thousand joins compiles like a short one. Results between
   * the operations go to one temporary; only the last writes `dst`, which may be a
   * variable that a later operand still reads.
   */
  private binaryInto(e: A.BinaryExpr, dst: number, named: boolean): void {
    const base = this.temps();
    const spine = this.spines;
    const bottom = spine.length;
    let x: A.Expr = e;
    while (x.type === 'binary') {
      spine.push(x);
      x = x.left;
    }
    let left = this.exprAny(x);
    let acc = -1;
    for (let i = spine.length - 1; i >= bottom; i--) {
      const n = spine.pop()!;
      const last = i === bottom;
      const mark = this.temps();
      if (n.op === 'and' || n.op === 'or') {
        // Short-circuit: the result is a boolean.
        const target = last ? (named ? this.allocTemps(1) : dst) : acc >= 0 ? acc : (acc = this.allocTemps(1));
        this.pos = n.pos;
        this.emit2(Op.TRUTH, target, left);
        this.emit2(n.op === 'and' ? Op.JMPF : Op.JMPT, target, 0);
        const j = this.here() - 1;
        const r = this.exprAny(n.right);
        this.pos = n.pos;
        this.emit2(Op.TRUTH, target, r);
        this.setWord(j, this.here());
        if (target !== dst && last) this.emit2(Op.MOVE, dst, target);
        left = target;
      } else {
        const target = last ? dst : acc >= 0 ? acc : (acc = this.allocTemps(1));
        if (n.op === '+' && n.right.type === 'number') {
          this.pos = n.pos;
          this.emit3(Op.ADDK, target, left, this.k(n.right.value));
        } else {
          const r = this.exprAny(n.right);
          this.pos = n.pos;
          this.emit3(BINARY_OPS[n.op], target, left, r);
        }
        left = target;
      }
      if (!last) this.freeTemps(Math.max(mark, acc + 1));
    }
    this.freeTemps(base);
  }

  private callInto(e: A.CallExpr, dst: number): void {
    const base = this.temps();
    const args = e.args;
    const n = args.length;
    const cx = this.cx;
    // a handler of this object, then a global handler, then a builtin
    const own = this.object !== null ? this.object.handlers[e.name] : undefined;
    const handler = own ?? cx.program.globalHandlers[e.name];
    const builtin = handler === undefined ? cx.builtinIndex.get(e.name) : undefined;
    // While handlers are still being declared, only this object's own is certain: a
    // global one may yet be shadowed by one of this object, and no name is unknown yet.
    // (A builtin's name is never a handler's.)
    if (!cx.declared && builtin === undefined && own === undefined && (handler === undefined || this.object !== null)) return this.callLater(e, dst);
    if (cx.uses !== undefined) cx.uses.call(e.name, e.pos, handler === undefined ? null : cx.program.handlers[handler]);
    if (handler === undefined && builtin === undefined) {
      for (let i = 0; i < n; i++) this.exprAny(args[i]); // still check the arguments
      this.freeTemps(base);
      return this.error(e.pos, unknownCallMessage(cx, this.object, e.name, e.spelled));
    }
    if (handler !== undefined) {
      const h = cx.paramCounts[handler];
      if (n !== h) this.error(e.pos, arityMessage(e.spelled, h, n));
    } else {
      const b = cx.builtins[builtin!];
      const ar = arityOf(b);
      if (n < ar.min || n > ar.max) {
        const want = ar.max === Infinity ? `at least ${ar.min}` : ar.min === ar.max ? `${ar.min}` : `${ar.min} to ${ar.max}`;
        this.error(e.pos, `${b.name} takes ${want} argument${want === '1' ? '' : 's'} (${b.name} (${b.params.join(', ')})), but ${n} ${n === 1 ? 'was' : 'were'} given`);
      }
    }
    const first = this.allocTemps(Math.max(n, 1));
    for (let i = 0; i < n; i++) this.exprInto(args[i], first + i, false);
    this.pos = e.pos;
    const sends = builtin === undefined ? undefined : cx.builtins[builtin].sends;
    if (handler !== undefined) this.emit4(Op.CALL, dst, handler, first, n);
    else if (sends !== undefined) {
      // an event to an object runs its handler in this thread; literal names are kept for the analysis
      const kind = SEND_KINDS.indexOf(sends);
      const literal = (i: number): number => (i < n && args[i].type === 'string' ? this.k((args[i] as A.StringLit).value) : -1);
      this.emit6(Op.SEND, dst, kind, first, n, kind === 0 ? -1 : literal(0), literal(kind === 0 ? 0 : 1));
    } else this.emit4(Op.CALLB, dst, builtin!, first, n);
    this.freeTemps(base);
  }

  /** A handler call whose handler resolveLater fills in (and checks the arguments against). */
  private callLater(e: A.CallExpr, dst: number): void {
    const base = this.temps();
    const n = e.args.length;
    const first = this.allocTemps(Math.max(n, 1));
    for (let i = 0; i < n; i++) this.exprInto(e.args[i], first + i, false);
    this.pos = e.pos;
    const at = this.out.length + 2;
    this.emit4(Op.CALL, dst, -1, first, n);
    this.cx.later.calls.push({ at, name: e.name, spelled: e.spelled, pos: e.pos, args: n, object: this.object, file: this.file!.file });
    this.freeTemps(base);
  }

  private unknownVariable(name: string, spelled: string, pos: A.Pos): void {
    const cx = this.cx;
    if (isHandlerName(cx, this.object, name)) return this.error(pos, handlerAsVariableMessage(spelled));
    const candidates = new Set<string>();
    for (const n of this.localNames) candidates.add(n);
    if (this.handlerGlobals) for (const n of this.handlerGlobals) candidates.add(n);
    for (const n of this.fileGlobals) candidates.add(n);
    if (this.object) for (const n of this.object.properties) candidates.add(n);
    const message = unknownMessage('variable', spelled, closest(name, candidates));
    // a handler declared further on would make it one read without parentheses
    if (!cx.declared) cx.later.names.push({ name, spelled, pos, object: this.object, file: this.file!.file, message });
    else this.error(pos, message);
  }

  // ---- emission helpers ---------------------------------------------------
  // One emitter per operand count: no argument arrays on the hottest path.

  /** The next instruction's address, relative to the handler's first word. */
  private here(): number {
    return this.out.length - this.start;
  }

  private setWord(at: number, value: number): void {
    this.out.code[this.start + at] = value;
  }

  /**
   * Room for one instruction of `operands` operands, its opcode and position written;
   * returns where it starts. The fixed-arity emitters below fill in the operands (the
   * count is checked first, so nothing can fail half-way through an instruction).
   */
  private reserve(op: Op, operands: number): number {
    if (OPERAND_COUNT[op] !== operands) throw operandCount(op);
    const out = this.out;
    const at = out.length;
    const end = at + operands + 1;
    if (end > out.code.length) out.grow(operands + 1);
    out.length = end;
    out.code[at] = op;
    if (!out.positions) return at;
    const line = this.pos.line;
    const col = this.pos.col;
    const lines = out.lines;
    const cols = out.cols;
    for (let i = at; i < end; i++) {
      lines[i] = line;
      cols[i] = col;
    }
    return at;
  }

  private emit0(op: Op): void {
    this.reserve(op, 0);
  }

  private emit1(op: Op, a: number): void {
    const at = this.reserve(op, 1);
    this.out.code[at + 1] = a;
  }

  private emit2(op: Op, a: number, b: number): void {
    const at = this.reserve(op, 2);
    const code = this.out.code;
    code[at + 1] = a;
    code[at + 2] = b;
  }

  private emit3(op: Op, a: number, b: number, c: number): void {
    const at = this.reserve(op, 3);
    const code = this.out.code;
    code[at + 1] = a;
    code[at + 2] = b;
    code[at + 3] = c;
  }

  private emit4(op: Op, a: number, b: number, c: number, d: number): void {
    const at = this.reserve(op, 4);
    const code = this.out.code;
    code[at + 1] = a;
    code[at + 2] = b;
    code[at + 3] = c;
    code[at + 4] = d;
  }

  private emit6(op: Op, a: number, b: number, c: number, d: number, e: number, f: number): void {
    const at = this.reserve(op, 6);
    const code = this.out.code;
    code[at + 1] = a;
    code[at + 2] = b;
    code[at + 3] = c;
    code[at + 4] = d;
    code[at + 5] = e;
    code[at + 6] = f;
  }

  /** Points the jumps on `stack` from `mark` up at `target` and drops them. */
  private patch(stack: number[], mark: number, target: number): void {
    while (stack.length > mark) this.setWord(stack.pop()!, target);
  }

  private k(v: Value): number {
    // Same-value-zero, like a Map key: 1 and "1" stay two constants, 0 and -0 share one.
    const consts = this.consts;
    if (this.constIndex === null) {
      for (let i = 0; i < consts.length; i++) {
        const c = consts[i];
        if (c === v || (c !== c && v !== v)) return i;
      }
      consts.push(v);
      if (consts.length > LINEAR_CONSTS) {
        this.constIndex = new Map();
        for (let i = 0; i < consts.length; i++) if (!this.constIndex.has(consts[i])) this.constIndex.set(consts[i], i);
      }
      return consts.length - 1;
    }
    let i = this.constIndex.get(v);
    if (i === undefined) {
      i = consts.length;
      consts.push(v);
      this.constIndex.set(v, i);
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
    this.nextReg = base > floor ? base : floor;
  }

  private error(pos: A.Pos, message: string): void {
    this.cx.diagnostics.push({ kind: 'error', file: this.file!.file, line: pos.line, col: pos.col, length: 1, message });
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

/** The index of global `name`, adding it to the program on first use. */
export function globalIndex(cx: CompileContext, name: string): number {
  let i = cx.globalIndex.get(name);
  if (i === undefined) {
    i = cx.program.globals.length;
    cx.program.globals.push(name);
    cx.globalIndex.set(name, i);
  }
  return i;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
