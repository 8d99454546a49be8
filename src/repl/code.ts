// Code typed at the prompt: statements run as a thread of the REPL's, definitions
// (handlers, objects, globals) compiled into the running world.
import { parseRepl, type ReplParse } from '../../grammar/parser.ts';
import type * as A from '../../grammar/ast.ts';
import { compileFiles, compileSnippet } from '../compiler/link.ts';
import { builtinTable } from '../engine/load.ts';
import { handlersOf } from '../engine/callframes.ts';
import { CompileErrors } from '../errors/diagnostic.ts';
import type { Program } from '../vm/program.ts';
import type { Coder } from './context.ts';

/**
 * `parsed`: the parse of `text`, if it has been parsed already. Its syntax errors are
 * reported under this group's name, whatever file name it was parsed with.
 */
export function evaluate(r: Coder, text: string, parsed: ReplParse | null = null): void {
  const file = `<repl ${++r.group}>`;
  const { items, errors } = parsed ?? parseRepl(text, file);
  if (errors.length > 0) {
    for (const p of errors) r.log.report({ kind: 'syntax error', file, line: p.pos.line, col: p.pos.col, length: p.length, message: p.message }, text);
    return;
  }
  const tops = items.filter((i): i is A.TopItem => i.type === 'handler' || i.type === 'object' || i.type === 'global');
  const stmts = items.filter((i): i is A.Stmt => i.type !== 'handler' && i.type !== 'object' && i.type !== 'global');
  const source: A.ScriptFile = { file, source: text, items: tops };
  const before = r.engine.program;
  if (tops.length > 0) {
    const defined = define(r, [source]);
    if (defined === null) return;
    r.typedAtPrompt = [...r.typedAtPrompt, ...defined];
    r.defs = [...r.defs, file];
  }
  if (stmts.length > 0) {
    let compiled: { program: Program; handler: number };
    try {
      compiled = compileSnippet(source, stmts, builtinTable(r.engine.program.hostBuiltins), r.engine.program);
    } catch (err) {
      if (err instanceof CompileErrors) {
        for (const d of err.diagnostics) r.log.report(d, d.file === file ? text : r.engine.program.sources[d.file]);
        return;
      }
      throw err;
    }
    r.engine.program = compiled.program;
    const th = r.threads.spawn(compiled.handler, 'repl');
    if (th) r.threads.echo(th);
  }
  const globals = r.engine.program.globals.slice(before.globals.length);
  if (globals.length > 0) r.typedAtPrompt = [...r.typedAtPrompt, ...globals.map((g) => `global ${g}`)];
}

/**
 * Adds or redefines handlers and objects in the running world. Threads parked in a
 * handler that is redefined are stopped: their place in the old code means nothing
 * in the new. New startup handlers run, as they would when the world boots.
 * Returns what was defined (e.g. "prop lamp", "on greet"), or null when it did not compile.
 */
export function define(r: Coder, files: A.ScriptFile[]): string[] | null {
  const e = r.engine;
  const before = e.program;
  let result: ReturnType<typeof compileFiles>;
  try {
    result = compileFiles(files, builtinTable(before.hostBuiltins), before, { replace: true });
  } catch (err) {
    if (err instanceof CompileErrors) {
      const texts = Object.fromEntries(files.map((f) => [f.file, f.source]));
      for (const d of err.diagnostics) r.log.report(d, texts[d.file] ?? before.sources[d.file]);
      return null;
    }
    throw err;
  }
  const { program, added, newObjects } = result;
  const replaced = new Set(added.filter((h) => h < before.handlers.length));
  for (const o of newObjects) if (o < before.objects.length && before.objects[o].init >= 0) replaced.add(before.objects[o].init);
  if (replaced.size > 0) stopThreadsIn(r, replaced);
  e.program = program;
  e.initObjects(newObjects);
  // an object's handlers come with it; name the objects and the global handlers
  const objects = newObjects.map((o) => `${program.objects[o].kind} ${program.objects[o].spelled}`);
  const handlers = added.filter((h) => program.handlers[h].object < 0 && program.handlers[h].name !== 'startup').map((h) => `on ${program.handlers[h].spelled}`);
  const what = [...objects, ...handlers];
  if (what.length > 0) r.log.emit({ kind: 'info', text: `defined ${what.join(', ')}` });
  const startups = program.startups.slice(before.startups.length);
  for (const h of startups) r.threads.spawn(h, 'startup');
  return startups.length > 0 ? [...what, 'on startup'] : what;
}

function stopThreadsIn(r: Coder, handlers: Set<number>): void {
  let n = 0;
  for (const th of r.engine.liveThreads()) {
    if (handlersOf(th).some((h) => handlers.has(h))) {
      r.engine.stopThread(th.id);
      n++;
    }
  }
  if (n > 0) r.log.emit({ kind: 'info', text: `stopped ${n} thread${n === 1 ? '' : 's'} running code that was just redefined` });
}
