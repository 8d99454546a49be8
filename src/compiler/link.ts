// Whole-program compilation: collect every object, handler and global across the
// loaded files first (so calls may go forward and across files), then compile bodies.
import type * as A from '../../grammar/ast.ts';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { CompileErrors } from '../errors/diagnostic.ts';
import type { Builtin } from '../builtins/registry.ts';
import { handlerCompiler, compileContext, globalIndex, newHandlerCode, type NameUses } from './compile.ts';
import { NESTING_MESSAGE, isStackOverflow } from './nesting.ts';
import { dict } from '../vm/dict.ts';
import type { HandlerCode, ObjectInfo, Program } from '../vm/program.ts';
import { emptyProgram, objectKey } from '../vm/program.ts';
import { sha256OfParts } from '../hash/sha256.ts';

/** A copy that new code can be added to without touching the original (the REPL extends programs). */
function extend(p: Program): Program {
  return {
    handlers: p.handlers.slice(),
    objects: p.objects.map((o) => ({ ...o, handlers: dict(o.handlers), properties: o.properties.slice() })),
    objectIndex: dict(p.objectIndex),
    globalHandlers: dict(p.globalHandlers),
    startups: p.startups.slice(),
    globals: p.globals.slice(),
    sources: dict(p.sources),
    fingerprint: p.fingerprint,
  };
}

export interface BuiltinTable {
  list: readonly Builtin[];
  index: ReadonlyMap<string, number>;
}

interface Pending {
  file: A.ScriptFile;
  handler: A.Handler;
  object: number;
  index: number;
  /** The placeholder declared for it, filled in when it compiles; null when it replaces a handler in place. */
  into: HandlerCode | null;
}

/**
 * Compile files on top of `base` (an empty program, or the running one for the REPL).
 * Returns the new program and the indices of the handlers added, or throws CompileErrors.
 */
export function compileFiles(
  files: A.ScriptFile[],
  builtins: BuiltinTable,
  base: Program = emptyProgram(),
  options: { replace?: boolean; uses?: NameUses } = {},
): { program: Program; added: number[]; newObjects: number[] } {
  const program = extend(base);
  const diagnostics: Diagnostic[] = [];
  let chars = 0;
  for (let i = 0; i < files.length; i++) chars += files[i].source.length;
  const cx = compileContext(program, builtins, diagnostics, chars);
  if (options.uses) cx.uses = options.uses;
  const pending: Pending[] = [];
  const pendingIndex = new Set<number>();
  const inits: { file: A.ScriptFile; block: A.ObjectBlock; object: number }[] = [];
  const newObjects: number[] = [];
  const fileGlobals = new Map<A.ScriptFile, Set<string>>();
  const err = (file: A.ScriptFile, pos: A.Pos, message: string): void => {
    diagnostics.push({ kind: 'error', file: file.file, line: pos.line, col: pos.col, length: 1, message });
  };

  /** `block` is the object the handler belongs to, or null for a global handler. */
  const declareHandler = (file: A.ScriptFile, h: A.Handler, object: number, table: Record<string, number>, block: A.ObjectBlock | null): void => {
    if (builtins.index.has(h.name)) {
      err(file, h.namePos, `"${h.spelled}" is the name of a builtin; a handler cannot take it`);
      return;
    }
    const existing = table[h.name];
    let index: number;
    let into: HandlerCode | null = null;
    if (existing !== undefined && h.name !== 'startup') {
      const prev = program.handlers[existing];
      const fromThisBatch = pendingIndex.has(existing);
      if (fromThisBatch || !options.replace) {
        const at = prev ? `${prev.file}:${prev.line}` : 'earlier';
        const where = block ? `in ${block.kind} ${block.spelled}` : 'as a global handler';
        err(file, h.namePos, `handler "${h.spelled}" is already defined ${where} (at ${at})`);
        return;
      }
      index = existing; // the REPL redefines a handler in place
    } else {
      index = program.handlers.length;
      into = newHandlerCode(h.name, h.spelled, object, h.params.length, file.file, h.pos, h.noLoopCheck);
      program.handlers.push(into);
    }
    cx.paramCounts[index] = h.params.length;
    if (h.name === 'startup' && object < 0) program.startups.push(index);
    else table[h.name] = index;
    pending.push({ file, handler: h, object, index, into });
    pendingIndex.add(index);
  };

  for (const file of files) {
    program.sources[file.file] = file.source;
    const globals = new Set<string>();
    fileGlobals.set(file, globals);
    const items = file.items;
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (item.type === 'global') {
        for (const n of item.names) {
          globals.add(n.name);
          globalIndex(cx, n.name);
        }
      }
    }
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (item.type === 'handler') {
        declareHandler(file, item, -1, program.globalHandlers, null);
      } else if (item.type === 'object') {
        const key = objectKey(item.kind, item.name);
        let index = program.objectIndex[key];
        if (index !== undefined && !options.replace) {
          const o = program.objects[index];
          err(file, item.pos, `${item.kind} "${item.spelled}" is already defined (at ${o.file}:${o.line})`);
          continue;
        }
        const info: ObjectInfo = { kind: item.kind, name: item.name, spelled: item.spelled, file: file.file, line: item.pos.line, properties: [], handlers: dict(), init: -1 };
        if (index === undefined) {
          index = program.objects.length;
          program.objects.push(info);
          program.objectIndex[key] = index;
        } else {
          program.objects[index] = info;
        }
        newObjects.push(index);
        for (let i = 0; i < item.properties.length; i++) {
          const p = item.properties[i];
          if (info.properties.includes(p.name)) err(file, p.pos, `property "${p.spelled}" is declared twice`);
          else info.properties.push(p.name);
        }
        for (let j = 0; j < item.handlers.length; j++) declareHandler(file, item.handlers[j], index, info.handlers, item);
        inits.push({ file, block: item, object: index });
      }
    }
  }

  const added: number[] = [];
  const hc = handlerCompiler(cx);
  try {
    for (let i = 0; i < pending.length; i++) {
      const p = pending[i];
      const obj = p.object >= 0 ? program.objects[p.object] : null;
      try {
        program.handlers[p.index] = hc.begin(p.file, fileGlobals.get(p.file)!, obj, p.object).compileHandler(p.handler, false, p.into ?? undefined);
      } catch (failure) {
        if (!isStackOverflow(failure)) throw failure;
        err(p.file, p.handler.namePos, `handler "${p.handler.spelled}": ${NESTING_MESSAGE}`);
      }
      added.push(p.index);
    }
    for (const init of inits) {
      if (!hasInitialiser(init.block.properties)) continue;
      const obj = program.objects[init.object];
      obj.init = program.handlers.length;
      program.handlers.push(hc.begin(init.file, fileGlobals.get(init.file)!, obj, init.object).compileInit(init.block.properties, init.block.pos));
    }
  } finally {
    hc.release();
  }
  if (diagnostics.length > 0) throw new CompileErrors(sortDiagnostics(diagnostics));
  cx.out.seal();
  program.fingerprint = fingerprint(program);
  return { program, added, newObjects };
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
export function compileSnippet(
  file: A.ScriptFile,
  stmts: A.Stmt[],
  builtins: BuiltinTable,
  program: Program,
  frame?: SnippetFrame,
): { program: Program; handler: number } {
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

/** A hash of the sources, in load order (names included): stable across runs and machines. */
function fingerprint(p: Program): string {
  const parts: string[] = [];
  for (const [name, src] of Object.entries(p.sources)) parts.push(name, src);
  return sha256OfParts(parts).slice(0, 16);
}
