// Whole-program compilation, two ways in. compileFiles takes whole syntax trees: it
// declares every object, handler and global first (so calls may go forward and across
// files), then compiles the bodies. compileAsRead compiles each handler as soon as the
// reader has read it, so no body is read twice and no tree lives whole; what a later
// declaration could still change (which handler a call reaches, the numbering of
// globals) is settled at the end, to the same program compileFiles would make.
import type * as A from '../../grammar/ast.ts';
import { readDirectInto, type ReadSink } from '../../grammar/direct.ts';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { CompileErrors } from '../errors/diagnostic.ts';
import type { HostBuiltin, SignatureTable } from '../signatures/table.ts';
import { handlerCompiler, compileContext, globalIndex, newHandlerCode, resolveLater, type CompileContext, type NameUses } from './compile.ts';
import { NESTING_MESSAGE, isStackOverflow } from './nesting.ts';
import { dict } from '../vm/dict.ts';
import type { HandlerCode, ObjectInfo, Program } from '../vm/program.ts';
import { emptyProgram, objectKey } from '../vm/program.ts';
import { sha256OfParts } from '../hash/sha256.ts';

/** A copy that new code can be added to without touching the original (the REPL extends programs). */
function extend(p: Program): Program {
  const copy: Program = {
    handlers: p.handlers.slice(),
    objects: p.objects.map((o) => ({ ...o, handlers: dict(o.handlers), properties: o.properties.slice() })),
    objectIndex: dict(p.objectIndex),
    globalHandlers: dict(p.globalHandlers),
    startups: p.startups.slice(),
    globals: p.globals.slice(),
    sources: dict(p.sources),
    fingerprint: '',
    hostBuiltins: p.hostBuiltins,
  };
  lazyFingerprint(copy, () => p.fingerprint);
  return copy;
}

export type BuiltinTable = SignatureTable;

/** The host's builtins in a table, in its order (the same list for the same table). */
const hostLists = new WeakMap<SignatureTable, HostBuiltin[]>();
function hostBuiltinsOf(t: SignatureTable): HostBuiltin[] {
  let l = hostLists.get(t);
  if (l === undefined) hostLists.set(t, (l = t.list.flatMap((s) => (s.host ? [s.host] : []))));
  return l;
}

interface Pending {
  file: A.ScriptFile;
  handler: A.Handler;
  object: number;
  index: number;
  /** The placeholder declared for it, filled in when it compiles; null when it replaces a handler in place. */
  into: HandlerCode | null;
}

/** A file being declared: its top-level globals. */
interface FileScope {
  file: A.ScriptFile;
  globals: Set<string>;
}

/** One compilation: declarations and bodies go in (in either order, see the top), the program comes out of `finish`. */
export interface CompileOptions {
  /** a handler declared again replaces the old one (the REPL) */
  replace?: boolean;
  /** told where each name resolves */
  uses?: NameUses;
  /** false: the code keeps no source positions, for a program that is checked and never run */
  positions?: boolean;
}

class Linker {
  readonly program: Program;
  readonly diagnostics: Diagnostic[] = [];
  readonly cx: CompileContext;
  private readonly hc: ReturnType<typeof handlerCompiler>;
  private readonly added: number[] = [];
  private readonly newObjects: number[] = [];
  private readonly inits: { scope: FileScope; block: A.ObjectBlock; object: number }[] = [];
  /** Handlers declared by this compilation, when it may replace others (a name declared twice in one batch is still an error). */
  private readonly declaredHere: Set<number> | null;
  /** Every top-level global, in the order declared (see numberGlobals). */
  private readonly topGlobals: string[] = [];
  private readonly baseGlobals: number;

  constructor(
    base: Program,
    private readonly builtins: BuiltinTable,
    sourceChars: number,
    private readonly options: CompileOptions,
    declaredFirst: boolean,
  ) {
    this.program = extend(base);
    this.program.hostBuiltins = hostBuiltinsOf(builtins);
    this.cx = compileContext(this.program, builtins, this.diagnostics, sourceChars, declaredFirst, options.positions !== false);
    if (options.uses) this.cx.uses = options.uses;
    this.declaredHere = options.replace ? new Set() : null;
    this.baseGlobals = this.program.globals.length;
    this.hc = handlerCompiler(this.cx);
  }

  private err(file: A.ScriptFile, pos: A.Pos, message: string): void {
    this.diagnostics.push({ kind: 'error', file: file.file, line: pos.line, col: pos.col, length: 1, message });
  }

  beginFile(file: A.ScriptFile): FileScope {
    this.program.sources[file.file] = file.source;
    return { file, globals: new Set() };
  }

  declareGlobals(scope: FileScope, item: A.GlobalDecl): void {
    for (const n of item.names) {
      scope.globals.add(n.name);
      globalIndex(this.cx, n.name);
      this.topGlobals.push(n.name);
    }
  }

  /** Declares an object block and its properties (those read so far); its index, or -1 for one already defined. */
  declareObject(scope: FileScope, item: A.ObjectBlock): number {
    const program = this.program;
    const key = objectKey(item.kind, item.name);
    let index = program.objectIndex[key];
    if (index !== undefined && !this.options.replace) {
      const o = program.objects[index];
      this.err(scope.file, item.pos, `${item.kind} "${item.spelled}" is already defined (at ${o.file}:${o.line})`);
      return -1;
    }
    const info: ObjectInfo = { kind: item.kind, name: item.name, spelled: item.spelled, file: scope.file.file, line: item.pos.line, properties: [], handlers: dict(), init: -1 };
    if (index === undefined) {
      index = program.objects.length;
      program.objects.push(info);
      program.objectIndex[key] = index;
    } else {
      program.objects[index] = info;
    }
    this.newObjects.push(index);
    this.declareProperties(scope, item, index, 0);
    return index;
  }

  /** Declares the properties of block `item` from the `from`th on. */
  declareProperties(scope: FileScope, item: A.ObjectBlock, object: number, from: number): void {
    const info = this.program.objects[object];
    for (let i = from; i < item.properties.length; i++) {
      const p = item.properties[i];
      if (info.properties.includes(p.name)) this.err(scope.file, p.pos, `property "${p.spelled}" is declared twice`);
      else info.properties.push(p.name);
    }
  }

  /** The object block has been declared with all its handlers: its properties get their initialiser. */
  endObject(scope: FileScope, block: A.ObjectBlock, object: number): void {
    this.inits.push({ scope, block, object });
  }

  /** Declares handler `h` of `object` (-1 and `block` null: a global handler); what to compile, or null (its name is taken). */
  declareHandler(scope: FileScope, h: A.Handler, object: number, block: A.ObjectBlock | null): Pending | null {
    const program = this.program;
    const file = scope.file;
    const builtin = this.builtins.index.get(h.name);
    if (builtin !== undefined) {
      this.err(file, h.namePos, `"${h.spelled}" is the name of a ${this.builtins.list[builtin].host ? 'host builtin' : 'builtin'}; a handler cannot take it`);
      return null;
    }
    const table = object < 0 ? program.globalHandlers : program.objects[object].handlers;
    const existing = table[h.name];
    let index: number;
    let into: HandlerCode | null = null;
    if (existing !== undefined && h.name !== 'startup') {
      const prev = program.handlers[existing];
      if (this.declaredHere === null || this.declaredHere.has(existing)) {
        const at = prev ? `${prev.file}:${prev.line}` : 'earlier';
        const where = block ? `in ${block.kind} ${block.spelled}` : 'as a global handler';
        this.err(file, h.namePos, `handler "${h.spelled}" is already defined ${where} (at ${at})`);
        return null;
      }
      index = existing; // the REPL redefines a handler in place
    } else {
      index = program.handlers.length;
      into = newHandlerCode(h.name, h.spelled, object, h.params.length, file.file, h.pos, h.noLoopCheck);
      program.handlers.push(into);
    }
    this.cx.paramCounts[index] = h.params.length;
    if (h.name === 'startup' && object < 0) program.startups.push(index);
    else table[h.name] = index;
    if (this.declaredHere !== null) this.declaredHere.add(index);
    return { file, handler: h, object, index, into };
  }

  compile(scope: FileScope, p: Pending): void {
    const program = this.program;
    const obj = p.object >= 0 ? program.objects[p.object] : null;
    try {
      program.handlers[p.index] = this.hc.begin(p.file, scope.globals, obj, p.object).compileHandler(p.handler, false, p.into ?? undefined);
    } catch (failure) {
      if (!isStackOverflow(failure)) throw failure;
      this.err(p.file, p.handler.namePos, `handler "${p.handler.spelled}": ${NESTING_MESSAGE}`);
    }
    this.added.push(p.index);
  }

  /** Settles calls, compiles the property initialisers and seals the code; throws CompileErrors. */
  finish(): { program: Program; added: number[]; newObjects: number[] } {
    const program = this.program;
    const cx = this.cx;
    if (!cx.declared) resolveLater(cx);
    for (const init of this.inits) {
      if (!hasInitialiser(init.block.properties)) continue;
      const obj = program.objects[init.object];
      obj.init = program.handlers.length;
      program.handlers.push(this.hc.begin(init.scope.file, init.scope.globals, obj, init.object).compileInit(init.block.properties, init.block.pos));
    }
    if (this.diagnostics.length > 0) throw new CompileErrors(sortDiagnostics(this.diagnostics));
    this.numberGlobals();
    cx.out.seal();
    lazyFingerprint(program, () => fingerprint(program));
    return { program, added: this.added, newObjects: this.newObjects };
  }

  /**
   * Numbers the globals as compileFiles does: the top-level ones first, in the order
   * the files declare them, then those that only handlers declare, in the order the
   * handlers compiled. Handlers compiled as they were read met the top-level globals
   * of later files after their own: their global operands are renumbered.
   */
  private numberGlobals(): void {
    const globals = this.program.globals;
    const order = globals.slice(0, this.baseGlobals);
    const seen = new Set(order);
    for (const g of this.topGlobals) {
      if (!seen.has(g)) {
        seen.add(g);
        order.push(g);
      }
    }
    for (let i = this.baseGlobals; i < globals.length; i++) if (!seen.has(globals[i])) order.push(globals[i]);
    let same = true;
    for (let i = this.baseGlobals; i < globals.length && same; i++) same = order[i] === globals[i];
    if (same) return;
    const number = new Map<string, number>();
    for (let i = 0; i < order.length; i++) number.set(order[i], i);
    this.cx.out.mapOperands(
      'g',
      Int32Array.from(globals, (g) => number.get(g)!),
    );
    for (let i = 0; i < order.length; i++) globals[i] = order[i];
  }

  /** Lets go of the shared handler compiler; call once, whatever happened. */
  release(): void {
    this.hc.release();
  }
}

/**
 * Compile files on top of `base` (an empty program, or the running one for the REPL).
 * Returns the new program and the indices of the handlers added, or throws CompileErrors.
 */
export function compileFiles(files: A.ScriptFile[], builtins: BuiltinTable, base: Program = emptyProgram(), options: CompileOptions = {}): { program: Program; added: number[]; newObjects: number[] } {
  let chars = 0;
  for (let i = 0; i < files.length; i++) chars += files[i].source.length;
  const l = new Linker(base, builtins, chars, options, true);
  try {
    const pending: { scope: FileScope; p: Pending }[] = [];
    for (const file of files) {
      const scope = l.beginFile(file);
      const items = file.items;
      for (let i = 0; i < items.length; i++) {
        const item = items[i];
        if (item.type === 'global') l.declareGlobals(scope, item);
      }
      for (let i = 0; i < items.length; i++) {
        const item = items[i];
        if (item.type === 'handler') {
          const p = l.declareHandler(scope, item, -1, null);
          if (p !== null) pending.push({ scope, p });
        } else if (item.type === 'object') {
          const index = l.declareObject(scope, item);
          if (index < 0) continue;
          for (let j = 0; j < item.handlers.length; j++) {
            const p = l.declareHandler(scope, item.handlers[j], index, item);
            if (p !== null) pending.push({ scope, p });
          }
          l.endObject(scope, item, index);
        }
      }
    }
    for (let i = 0; i < pending.length; i++) l.compile(pending[i].scope, pending[i].p);
    return l.finish();
  } finally {
    l.release();
  }
}

/** Thrown by a reading linker at a declaration that would change handlers it has compiled. */
const TOO_LATE: unknown = Object.freeze({ tooLate: true });

/**
 * Hands what the reader reads of one file to the linker: declarations at once, each
 * handler compiled as soon as it is read. A `global` or `property` declared below
 * handlers that it could change (they named it, or one had an error whose suggestion
 * it could change) throws TOO_LATE: those handlers must compile again.
 */
class ReadingFile implements ReadSink {
  private block: A.ObjectBlock | null = null;
  private object = -1;
  /** How many of the block's properties were declared when it opened. */
  private properties = 0;
  /** Handlers compiled from this file start at this index. */
  private readonly firstHandler: number;
  private readonly problems: number;

  constructor(
    private readonly l: Linker,
    private readonly scope: FileScope,
  ) {
    this.firstHandler = l.program.handlers.length;
    this.problems = this.problemCount();
  }

  private problemCount(): number {
    return this.l.diagnostics.length + this.l.cx.later.names.length;
  }

  handler(h: A.Handler, block: A.ObjectBlock | null): void {
    const l = this.l;
    let object = -1;
    if (block !== null) {
      if (block !== this.block) this.open(block);
      if (this.object < 0) return; // a block defined twice: nothing in it compiles
      object = this.object;
    }
    const p = l.declareHandler(this.scope, h, object, block);
    if (p !== null) l.compile(this.scope, p);
  }

  item(item: A.GlobalDecl | A.ObjectBlock): void {
    const l = this.l;
    if (item.type === 'global') {
      const fresh = item.names.map((n) => n.name).filter((n) => !this.scope.globals.has(n));
      if (fresh.length > 0 && this.changesCompiled(fresh, false)) throw TOO_LATE;
      l.declareGlobals(this.scope, item);
      return;
    }
    if (item !== this.block) this.open(item);
    if (this.object < 0) return;
    if (item.properties.length > this.properties) {
      const late = item.properties.slice(this.properties).map((p) => p.name);
      if (this.changesCompiled(late, true)) throw TOO_LATE;
      l.declareProperties(this.scope, item, this.object, this.properties);
    }
    l.endObject(this.scope, item, this.object);
  }

  private open(block: A.ObjectBlock): void {
    this.block = block;
    this.object = this.l.declareObject(this.scope, block);
    this.properties = block.properties.length;
  }

  /** Whether declaring `names` now (as globals of the file, or properties) could change a handler compiled from it. */
  private changesCompiled(names: string[], properties: boolean): boolean {
    const handlers = this.l.program.handlers;
    if (handlers.length === this.firstHandler) return false;
    if (this.problemCount() > this.problems) return true;
    for (const n of names) {
      // a property shadows a global of the file
      if (properties && this.scope.globals.has(n)) return true;
      for (let i = this.firstHandler; i < handlers.length; i++) if (handlers[i].localNames.includes(n)) return true;
    }
    return false;
  }
}

/**
 * Compiles sources as they are read (see the top), to the program compileFiles would
 * make of their trees; throws CompileErrors. Null when that cannot be done: `unread` is
 * the first source the direct reader gave up on (it has a mistake, which the careful
 * pass reports), or null when a declaration came too late (see ReadingFile).
 */
export function compileAsRead(sources: readonly { file: string; source: string }[], builtins: BuiltinTable): { program: Program } | { unread: number | null } {
  let chars = 0;
  for (let i = 0; i < sources.length; i++) chars += sources[i].source.length;
  const l = new Linker(emptyProgram(), builtins, chars, {}, false);
  try {
    for (let i = 0; i < sources.length; i++) {
      const file: A.ScriptFile = { file: sources[i].file, source: sources[i].source, items: [] };
      if (!readDirectInto(file.source, new ReadingFile(l, l.beginFile(file)))) return { unread: i };
    }
    return l.finish();
  } catch (err) {
    if (err === TOO_LATE) return { unread: null };
    throw err;
  } finally {
    l.release();
  }
}

/**
 * Where a snippet runs in a handler's frame (the debugger): inside `object` (-1: none),
 * with `locals` as its parameters, in order, so they read and write the frame's own.
 */
export interface SnippetFrame {
  object: number;
  locals: readonly string[];
}

/**
 * Compile REPL statements as a one-off handler `(repl)` that returns the last expression's value.
 * In a `frame`, names resolve as they would there, and a name it does not know stays the snippet's own.
 */
export function compileSnippet(file: A.ScriptFile, stmts: A.Stmt[], builtins: BuiltinTable, program: Program, frame?: SnippetFrame): { program: Program; handler: number } {
  const p = extend(program);
  const diagnostics: Diagnostic[] = [];
  const cx = compileContext(p, builtins, diagnostics, file.source.length);
  // Every name the REPL assigns at top level is a global, so it survives between lines.
  const globals = new Set<string>(p.globals);
  if (!frame) collectAssigned(stmts, globals);
  for (const g of globals) globalIndex(cx, g);
  const pos = stmts[0]?.pos ?? { line: 1, col: 1 };
  const params = (frame?.locals ?? []).map((name) => ({ name, spelled: name, pos }));
  const h: A.Handler = { type: 'handler', name: '(repl)', spelled: '(repl)', params, body: stmts, pos, namePos: pos, noLoopCheck: false };
  const object = frame?.object ?? -1;
  const hc = handlerCompiler(cx);
  let code: HandlerCode;
  try {
    code = hc.begin(file, globals, object >= 0 ? p.objects[object] : null, object).compileHandler(h, true);
  } finally {
    hc.release();
  }
  if (diagnostics.length > 0) throw new CompileErrors(sortDiagnostics(diagnostics));
  cx.out.seal();
  p.sources[file.file] = file.source;
  const index = p.handlers.length;
  p.handlers.push(code);
  return { program: p, handler: index };
}

function hasInitialiser(props: A.PropertyDecl[]): boolean {
  for (let i = 0; i < props.length; i++) if (props[i].init) return true;
  return false;
}

function collectAssigned(stmts: A.Stmt[], into: Set<string>): void {
  for (const s of stmts) {
    if (s.type === 'assign') into.add(s.name);
    else if (s.type === 'for') {
      into.add(s.var.name);
      collectAssigned(s.body, into);
    } else if (s.type === 'while') collectAssigned(s.body, into);
    else if (s.type === 'if') {
      for (const b of s.branches) collectAssigned(b.body, into);
      if (s.elseBody) collectAssigned(s.elseBody, into);
    }
  }
}

export function sortDiagnostics(ds: Diagnostic[]): Diagnostic[] {
  return ds.slice().sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.col - b.col));
}

/**
 * Makes `p.fingerprint` computed when first read, by `compute`: hashing a big world's
 * sources takes a good part of its compile time, and only saves need it.
 */
function lazyFingerprint(p: Program, compute: () => string): void {
  let value: string | null = null;
  Object.defineProperty(p, 'fingerprint', { get: () => (value ??= compute()), enumerable: true, configurable: true });
}

/** A hash of the sources, in load order (names included): stable across runs and machines. */
function fingerprint(p: Program): string {
  const parts: string[] = [];
  for (const [name, src] of Object.entries(p.sources)) parts.push(name, src);
  return sha256OfParts(parts).slice(0, 16);
}
