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
