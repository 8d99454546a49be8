// Hot reload: the program the world would have with its files as they are now, and
// what changed. The world itself is swapped over by the session, through a snapshot
// (the world as plain data, named): everything a script set is kept, threads in
// handlers that did not change go on, and those in handlers that did are stopped.
import type * as A from '../../grammar/ast.ts';
import { parseRepl } from '../../grammar/parser.ts';
import { forgetReadBody } from '../../grammar/direct.ts';
import { compileFiles, compileSnippet, sortDiagnostics } from '../compiler/link.ts';
import { parseSources, type SourceText } from '../compiler/sources.ts';
import { STDLIB } from '../compiler/stdlib.ts';
import { builtinsFor } from '../builtins/host.ts';
import { builtinTable } from '../engine/load.ts';
import type { HostBuiltin } from '../signatures/table.ts';
import { CompileErrors, type Diagnostic } from '../errors/diagnostic.ts';
import type { HandlerCode, Program } from '../vm/program.ts';
import { handlerDigest, handlerNaming } from '../vm/names.ts';
import { repr, type Value } from '../vm/value.ts';
import type { RestoredWorld } from '../engine/snapshot.ts';
import type { Loader, SessionOptions } from './context.ts';
import { readSources } from '../node/load.ts';
import { handlersOf } from '../engine/callframes.ts';
import { loadLinted } from '../lint/index.ts';
import { loadProgram } from '../engine/load.ts';
import { formatDiagnostic } from '../errors/diagnostic.ts';
import { Input, type LoadInput, type ReloadInput } from './travel.ts';
import type { LogEntry } from './events.ts';

/** A name the REPL gives what is typed at its prompt (`<repl 3>`), never a file's. */
export const isTyped = (name: string): boolean => name.startsWith('<repl ');

export type Rebuilt = { program: Program } | { diagnostics: Diagnostic[]; sources: Record<string, string> };

/**
 * The boot library and every definition made so far, in the order they were made
 * (`order`: file names and typed groups), each with its text as `textOf` gives it now;
 * where two define the same object or global handler, the later one wins, as it did
 * when it was made. Typed statements with threads still in them (`snippets`) are
 * compiled again so those threads can go on; names assigned at the prompt (`globals`)
 * stay globals.
 */
export function rebuildProgram(order: readonly string[], textOf: (name: string) => string, snippets: readonly string[], globals: readonly string[], host: readonly HostBuiltin[] = []): Rebuilt {
  const table = builtinTable(host);
  const files: SourceText[] = order.filter((n) => !isTyped(n)).map((file) => ({ file, source: textOf(file) }));
  const texts: Record<string, string> = Object.fromEntries([...STDLIB, ...files].map((s) => [s.file, s.source]));
  try {
    const parsed = parseSources([...STDLIB, ...files], true);
    if (parsed.errors.length > 0) return { diagnostics: sortDiagnostics(parsed.errors), sources: texts };
    const byName = new Map(parsed.files.map((f) => [f.file, f]));
    const all: A.ScriptFile[] = [...STDLIB.map((s) => byName.get(s.file)!)];
    for (const name of order) {
      if (!isTyped(name)) all.push(byName.get(name)!);
      else {
        const source = textOf(name);
        texts[name] = source;
        all.push({ file: name, source, items: parseRepl(source, name).items.filter(isTop) });
      }
    }
    let program: Program;
    try {
      program = compileFiles(latestDefinitions(all), table).program;
    } catch (err) {
      if (err instanceof CompileErrors) return { diagnostics: err.diagnostics, sources: texts };
      throw err;
    }
    for (const name of snippets) {
      const source = textOf(name);
      const { items } = parseRepl(source, name);
      const stmts = items.filter((i): i is A.Stmt => !isTop(i));
      try {
        program = compileSnippet({ file: name, source, items: items.filter(isTop) }, stmts, table, program).program;
      } catch (err) {
        // its threads cannot go on: they are stopped with the rest that cannot
        if (!(err instanceof CompileErrors)) throw err;
      }
    }
    for (const g of globals) if (!program.globals.includes(g)) program.globals.push(g);
    return { program };
  } finally {
    forgetReadBody();
  }
}

function isTop(i: A.TopItem | A.Stmt): i is A.TopItem {
  return i.type === 'handler' || i.type === 'object' || i.type === 'global';
}

/** Each file with only the definitions no later file makes again (an object block, a global handler; every startup stays). */
function latestDefinitions(files: A.ScriptFile[]): A.ScriptFile[] {
  const key = (i: A.TopItem): string | null => (i.type === 'object' ? `${i.kind}:${i.name}` : i.type === 'handler' && i.name !== 'startup' ? `on ${i.name}` : null);
  const owner = new Map<string, number>();
  files.forEach((f, n) => {
    for (const i of f.items) {
      const k = key(i);
      if (k !== null) owner.set(k, n);
    }
  });
  return files.map((f, n) => ({ ...f, items: f.items.filter((i) => (key(i) === null ? true : owner.get(key(i)!) === n)) }));
}

/**
 * The program as a reload's snapshot names it: handlers that an object redefined at
 * the prompt or by :load left behind lose their object's name, so the handlers it has
 * now keep theirs (they would be `prop lamp/click#2` otherwise). A thread still in
 * such a leftover is stopped by the reload.
 */
export function withoutLeftovers(p: Program): Program {
  const left = (h: HandlerCode, i: number): boolean => h.object >= 0 && p.objects[h.object].handlers[h.name] !== i && p.objects[h.object].init !== i;
  if (!p.handlers.some(left)) return p;
  return { ...p, handlers: p.handlers.map((h, i) => (left(h, i) ? { ...h, name: `(replaced) ${h.name}` } : h)) };
}

/** The handlers an author wrote, by stable name, with the digest of their code. */
function authored(p: Program): Map<string, string> {
  const out = new Map<string, string>();
  handlerNaming(p).names.forEach((name, i) => {
    // (typed statements, property initialisers and leftovers are not the author's handlers)
    if (name.slice(name.lastIndexOf('/') + 1).startsWith('(')) return;
    out.set(
      name,
      handlerDigest(p, i, (b) => builtinsFor(p)[b]?.name ?? `#${b}`),
    );
  });
  return out;
}

/** `on counter` for a global handler, `on startup (world.pw)` for a file's startup; an object's as it is named (`set engine/steamhiss`). */
export function shownHandler(name: string): string {
  if (name.includes('/')) return name;
  const at = name.indexOf('@');
  return at > 0 ? `on ${name.slice(0, at)} (${name.slice(at + 1)})` : `on ${name}`;
}

export interface Changes {
  added: string[];
  changed: string[];
  removed: string[];
}

/** Handlers added, changed (their code, not where they lie) and removed between two programs. */
export function handlerChanges(before: Program, after: Program): Changes {
  const a = authored(withoutLeftovers(before));
  const b = authored(after);
  const out: Changes = { added: [], changed: [], removed: [] };
  for (const [name, digest] of b) {
    const was = a.get(name);
    if (was === undefined) out.added.push(name);
    else if (was !== digest) out.changed.push(name);
  }
  for (const name of a.keys()) if (!b.has(name)) out.removed.push(name);
  return out;
}

/** What a reload changed, for the log: handlers, properties (new ones with the values they start with), what is gone, threads stopped. */
export function reloadReport(files: string[], changes: Changes, restored: RestoredWorld, program: Program, props: (Value | undefined)[][]): string[] {
  const out = [`reloaded ${files.length > 0 ? files.join(', ') : 'the world'}`];
  const list = (label: string, names: string[]): void => {
    if (names.length > 0) out.push(`  ${label} ${names.join(', ')}`);
  };
  list('handlers changed:', changes.changed.map(shownHandler));
  list('handlers added:', changes.added.map(shownHandler));
  list('handlers removed:', changes.removed.map(shownHandler));
  if (changes.changed.length + changes.added.length + changes.removed.length === 0) out.push('  no handler changed');
  const value = (o: number, j: number): string => {
    const v = props[o]?.[j];
    return v === undefined ? 'unset' : repr(v);
  };
  const added: string[] = [];
  for (const o of restored.changes.addedObjects) {
    const info = program.objects[o];
    added.push(...info.properties.map((p, j) => `${info.kind} ${info.name}.${p} = ${value(o, j)}`));
  }
  for (const [o, j] of restored.changes.addedProperties) added.push(`${program.objects[o].kind} ${program.objects[o].name}.${program.objects[o].properties[j]} = ${value(o, j)}`);
  list('properties added:', added);
  list('gone:', restored.changes.removed);
  for (const d of restored.dropped) {
    out.push(`  stopped thread ${d.id} (${d.origin}): it was in ${shownHandler(d.handler)}, which ${d.why === 'changed' ? 'changed' : 'is gone'}`);
  }
  return out;
}

// ---- loading files into the running world, and reloading them ----

export function initialProgram(r: Loader, opts: SessionOptions, early: LogEntry[]): Program {
  let sources: SourceText[] = [];
  for (const f of opts.files ?? []) {
    try {
      sources.push(...readSources([f]));
    } catch (err) {
      r.log.errorCount++;
      early.push({ kind: 'error', text: `cannot load ${f}: ${(err as Error).message}` });
    }
  }
  sources = [...sources, ...(opts.sources ?? [])];
  // files that did not load are looked for again by :reload
  r.roots = [...(opts.files ?? [])];
  r.inMemory = new Set((opts.sources ?? []).map((s) => s.file));
  const loaded = loadLinted(sources, r.hostBuiltins);
  if (loaded.program) {
    r.files = sources.map((s) => s.file);
    r.defs = [...r.files];
    if (sources.length > 0) early.push({ kind: 'info', text: `loaded ${sources.map((s) => s.file).join(', ')}` });
    for (const d of loaded.warnings) early.push({ kind: 'warning', text: formatDiagnostic(d, loaded.sources[d.file]) });
    return loaded.program;
  }
  for (const d of loaded.diagnostics) {
    r.log.errorCount++;
    early.push({ kind: 'error', text: formatDiagnostic(d, loaded.sources[d.file]) });
  }
  early.push({ kind: 'info', text: 'the world starts without those files: fix them, then :load them' });
  const bare = loadProgram([], true, { host: r.hostBuiltins });
  if (!bare.program) throw new Error('the boot library does not compile');
  return bare.program;
}

/** :load — parse and compile files into the running world. */
export function loadFiles(r: Loader, paths: string[]): void {
  let sources: SourceText[];
  try {
    sources = readSources(paths);
  } catch (err) {
    r.log.errorCount++;
    r.log.emit({ kind: 'error', text: (err as Error).message });
    return;
  }
  if (sources.length === 0) {
    r.log.emit({ kind: 'info', text: `no .pw files in ${paths.join(', ')}` });
    return;
  }
  const bytes = sources.reduce((n, f) => n + f.source.length, 0);
  r.input(Input.load, { sources, paths, bytes }, () => loadSources(r, { sources, paths }));
}

export function loadSources(r: Loader, { sources, paths }: LoadInput): void {
  const { files, errors } = parseSources(sources);
  if (errors.length > 0) {
    const texts = Object.fromEntries(sources.map((s) => [s.file, s.source]));
    for (const d of errors) r.log.report(d, texts[d.file]);
    return;
  }
  if (r.define(files)) {
    // loading a file again redefines it in place: it is still one file of the world
    r.files = [...r.files, ...sources.map((f) => f.file).filter((f) => !r.files.includes(f))];
    const names = new Set(sources.map((f) => f.file));
    r.defs = [...r.defs.filter((d) => !names.has(d)), ...names];
    r.roots = [...new Set([...r.roots, ...paths])];
    r.onFilesChanged?.();
    r.log.emit({ kind: 'info', text: `loaded ${sources.map((s) => s.file).join(', ')}` });
    lintLoaded(r, sources);
  }
}

/** The warnings of files just loaded, read together with every file loaded before. */
function lintLoaded(r: Loader, fresh: SourceText[]): void {
  const names = new Set(fresh.map((s) => s.file));
  const program = r.engine.program;
  const all = [...new Set(r.files)].map((file) => ({ file, source: program.sources[file] ?? '' }));
  const linted = loadLinted(all, r.hostBuiltins);
  for (const d of linted.warnings) if (names.has(d.file)) r.log.report(d, linted.sources[d.file]);
}

/**
 * :reload (and --watch) — every loaded file compiled again, with what was defined at
 * the prompt, and swapped in under the running world. One that does not compile
 * changes nothing.
 */
export function reloadFiles(r: Loader, quiet = false): void {
  let fresh: SourceText[];
  try {
    fresh = readSources([...r.roots]);
  } catch (err) {
    return r.log.error(`cannot reload: ${(err as Error).message}`);
  }
  const program = r.engine.program;
  const found = new Map(fresh.map((f) => [f.file, f.source]));
  // a file gone from its folder goes from the world; one new in it comes in last
  const defs = [...r.defs.filter((d) => isTyped(d) || found.has(d) || r.inMemory.has(d)), ...[...found.keys()].filter((f) => !r.defs.includes(f))];
  const textOf = (name: string): string => found.get(name) ?? program.sources[name] ?? '';
  const changed = [...defs.filter((d) => !isTyped(d) && textOf(d) !== program.sources[d]), ...r.defs.filter((d) => !defs.includes(d))];
  if (changed.length === 0) return quiet ? undefined : r.log.info('nothing to reload: the loaded files are as they were');
  const snippets = new Set<string>();
  const names = handlerNaming(program).names;
  for (const th of r.engine.liveThreads()) {
    for (const hi of handlersOf(th)) if (names[hi].startsWith('(repl)@')) snippets.add(program.handlers[hi].file);
  }
  const globals = r.typedAtPrompt.filter((t) => t.startsWith('global ')).map((t) => t.slice(7));
  const rebuilt = rebuildProgram(defs, textOf, [...snippets], globals, r.hostBuiltins);
  if ('diagnostics' in rebuilt) {
    for (const d of rebuilt.diagnostics) r.log.report(d, rebuilt.sources[d.file]);
    return r.log.info('the reload changed nothing: the world runs on with the scripts it had');
  }
  const files = defs.filter((d) => !isTyped(d));
  const bytes = changed.reduce((n, f) => n + textOf(f).length, 0);
  r.input(Input.reload, { program: rebuilt.program, files, defs, changed, bytes }, () => swapProgram(r, { program: rebuilt.program, files, defs, changed, bytes }));
  lintLoaded(
    r,
    fresh.filter((f) => changed.includes(f.file)),
  );
}

/**
 * The new program under the running world: the world is written as a snapshot with
 * the old one and read into the new one, which keeps every value, loop, walk, clock
 * and thread by name; a thread in a handler that changed is stopped and named.
 */
export function swapProgram(r: Loader, to: ReloadInput): void {
  const e = r.engine;
  const before = e.program;
  const text = r.running.save({ program: withoutLeftovers(before) });
  const restored = r.running.read(text, { program: to.program, dropChanged: true });
  e.program = to.program;
  r.world.adopt(restored.state, restored.threads, restored.changes);
  r.files = to.files;
  r.defs = to.defs;
  r.threads.follow();
  r.log.emit({ kind: 'output', text: reloadReport(to.changed, handlerChanges(before, to.program), restored, to.program, e.props).join('\n') });
}
