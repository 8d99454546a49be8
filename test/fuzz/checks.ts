// What every fuzzer asserts about one input. Plain node:assert, so the same checks run
// inside the fuzzing worker and in ordinary vitest tests (regressions).
import assert from 'node:assert/strict';
import { parseFile, parseRepl, isIncomplete } from '../../grammar/parser.ts';
import type { SyntaxProblem } from '../../grammar/ast.ts';
import { loadProgram, type LoadResult, type SourceText } from '../../src/compiler/load.ts';
import { formatDiagnostic, type Diagnostic } from '../../src/errors/diagnostic.ts';
import { runHeadless, continueHeadless, createHeadlessEngine, type HeadlessOptions } from '../../src/hosts/headless.ts';
import { readSnapshot, writeSnapshot } from '../../src/engine/snapshot.ts';
import { shownMessage } from '../../src/errors/text.ts';
import type { Program } from '../../src/vm/program.ts';

/** A JavaScript stack frame in text meant for script authors. */
export const JS_STACK = /\n\s*at .*\.(ts|js|mjs|cjs):\d+|node:internal\//;

/** Line breaks as the lexer counts them. */
function lineCount(source: string): number {
  let n = 1;
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 10) n++;
    else if (c === 13) {
      n++;
      if (source.charCodeAt(i + 1) === 10) i++;
    }
  }
  return n;
}

function checkPosition(where: string, file: string, line: number, col: number, message: string, sources: Record<string, string>): void {
  assert.equal(typeof message, 'string', `${where}: the message is not a string`);
  assert.ok(message.trim().length > 0, `${where}: empty message`);
  assert.ok(typeof file === 'string' && file.length > 0, `${where}: no file (${JSON.stringify(message)})`);
  assert.ok(Object.prototype.hasOwnProperty.call(sources, file), `${where}: file "${file}" was not loaded (${JSON.stringify(message)})`);
  assert.ok(Number.isInteger(line) && line >= 1, `${where}: line ${line} is not a positive whole number (${JSON.stringify(message)})`);
  assert.ok(Number.isInteger(col) && col >= 1, `${where}: col ${col} is not a positive whole number (${JSON.stringify(message)})`);
  const lines = lineCount(sources[file]);
  assert.ok(line <= lines + 1, `${where}: line ${line} is past the end of ${file} (${lines} lines; ${JSON.stringify(message)})`);
}

function checkProblems(problems: SyntaxProblem[], file: string, source: string, where: string): void {
  assert.ok(Array.isArray(problems), `${where}: errors is not a list`);
  for (const p of problems) {
    assert.equal(p.file, file, `${where}: a problem names file ${p.file}`);
    checkPosition(where, p.file, p.pos.line, p.pos.col, p.message, { [file]: source });
    assert.ok(Number.isInteger(p.length) && p.length >= 1, `${where}: length ${p.length}`);
  }
}

function checkDiagnostics(ds: Diagnostic[], sources: Record<string, string>, where: string): void {
  for (const d of ds) {
    assert.ok(d.kind === 'syntax error' || d.kind === 'error', `${where}: a ${d.kind} while loading`);
    checkPosition(where, d.file, d.line, d.col, d.message, sources);
    // formatting (code frame and caret) must cope with any position it is given
    const text = formatDiagnostic(d, sources[d.file]);
    assert.ok(!JS_STACK.test(text), `${where}: a JavaScript stack in a diagnostic:\n${text}`);
    // as a terminal should show it: control characters made visible, long names cut
    assert.ok(text.includes(shownMessage(d.message)), `${where}: the formatted diagnostic lost its message`);
  }
}

/** Parsing (file and REPL) and loading never throw; every problem is well-formed. */
export function checkText(source: string, withStdlib: boolean): void {
  const file = 'fuzz.pw';
  const r = parseFile(source, file);
  assert.ok(r && r.ast && Array.isArray(r.ast.items), 'parseFile returned no AST');
  checkProblems(r.errors, file, source, 'parseFile');
  const repl = parseRepl(source, '<repl>');
  checkProblems(repl.errors, '<repl>', source, 'parseRepl');
  assert.equal(typeof isIncomplete(source), 'boolean');
  checkLoad([{ file, source }], withStdlib);
}

/** loadProgram never throws; a program comes back exactly when there is no diagnostic. */
export function checkLoad(sources: SourceText[], withStdlib = true): LoadResult {
  const loaded = loadProgram(sources, withStdlib);
  assert.ok(loaded && Array.isArray(loaded.diagnostics), 'loadProgram returned no diagnostics list');
  checkDiagnostics(loaded.diagnostics, loaded.sources, 'loadProgram');
  if (loaded.program) assert.equal(loaded.diagnostics.length, 0, 'a program and diagnostics at once');
  else assert.ok(loaded.diagnostics.length > 0, 'no program and no diagnostic');
  return loaded;
}

export interface RunOutput {
  stdout: string[];
  stderr: string[];
  trace: string[];
  exit: number;
}

/** Runs a program headless and returns everything it wrote; any exception escaping is a failure. */
export function runCaptured(program: Program, opts: HeadlessOptions): RunOutput {
  const out: RunOutput = { stdout: [], stderr: [], trace: [], exit: 0 };
  let r;
  try {
    r = runHeadless(
      program,
      {
        print: (t) => out.stdout.push(t),
        diagnostic: (_d, f) => out.stderr.push(f),
        trace: (ev) => out.trace.push(JSON.stringify(ev)),
      },
      opts,
    );
  } catch (err) {
    assert.fail(`runHeadless threw (jit: ${opts.jit !== false}): ${(err as Error)?.stack ?? String(err)}`);
  }
  out.exit = r.exit;
  return out;
}

/** Limits small enough that a fuzzed program meets them quickly, but above what valid ones need. */
export const FUZZ_LIMITS = { loopGuard: 1000, maxString: 5000, maxList: 300, maxThreads: 200 } as const;

/**
 * A generated program runs under the guard and limits without any exception escaping,
 * never shows a JavaScript stack or an internal error, and the bytecode interpreter and
 * the generated code write exactly the same stdout, stderr and trace.
 */
export function checkRun(program: Program, opts: HeadlessOptions): RunOutput {
  const fast = runCaptured(program, { ...opts, jit: true });
  const slow = runCaptured(program, { ...opts, jit: false });
  for (const [name, out] of [['generated code', fast], ['interpreter', slow]] as const) {
    for (const text of out.stderr) {
      assert.ok(!JS_STACK.test(text), `${name}: a JavaScript stack in stderr:\n${text}`);
      assert.ok(!text.includes('internal error'), `${name}: an internal error:\n${text}`);
    }
    assert.ok(out.exit === 0 || out.exit === 1, `${name}: exit ${out.exit}`);
  }
  assert.deepEqual(slow.stdout, fast.stdout, 'the interpreter and the generated code printed different stdout');
  assert.deepEqual(slow.stderr, fast.stderr, 'the interpreter and the generated code reported different errors');
  assert.deepEqual(slow.trace, fast.trace, 'the interpreter and the generated code traced differently');
  assert.equal(slow.exit, fast.exit, 'different exit codes');
  return fast;
}

/**
 * A generated world saved part-way (`fraction` of the game time its uninterrupted run
 * reaches) and restored runs on exactly like the run never saved: every printed line,
 * error and trace event, in order. The snapshot is written by one engine and restored
 * into the other, so neither keeps anything a snapshot leaves out. Pocketwatch must
 * always read back its own snapshot. Returns whether there was a live world to save.
 */
export function checkSaveRestore(program: Program, opts: HeadlessOptions, fraction: number, savedOn: 'generated code' | 'interpreter'): boolean {
  const jitFirst = savedOn === 'generated code';
  const full: string[] = [];
  const reached = runLines(program, { ...opts, jit: jitFirst }, full).engine.state.now;
  const saveAt = Math.floor(reached * fraction);
  if (saveAt < 1) return false;
  const parts: string[] = [];
  const host = linesHost(parts);
  const a = runLines(program, { ...opts, jit: jitFirst, until: saveAt, savedAfter: true }, parts);
  // a run that ended before the save point (an error, or nothing left alive) has nothing to save
  if (a.engine.halted || a.stoppedBy !== 'until') return false;
  let text: string;
  try {
    text = writeSnapshot(a.engine.state, a.engine.threadsForSave(), program, { kind: 'headless', fps: opts.fps, nextFrame: a.nextFrame, files: ['gen.pw'], seed: opts.seed ?? 1, loopGuard: opts.loopGuard ?? 100_000, input: [] });
  } catch (err) {
    assert.fail(`the world could not be saved at ${saveAt} units: ${(err as Error)?.message ?? String(err)}`);
  }
  let restored;
  try {
    restored = readSnapshot(text, program);
  } catch (err) {
    assert.fail(`Pocketwatch refused its own snapshot: ${(err as Error)?.message ?? String(err)}\n${text.slice(0, 2000)}`);
  }
  const rest = { ...opts, jit: !jitFirst };
  const e = createHeadlessEngine(program, host, rest);
  e.adopt(restored.state, restored.threads);
  try {
    continueHeadless(e, rest, restored.host.nextFrame);
  } catch (err) {
    assert.fail(`the restored run threw: ${(err as Error)?.stack ?? String(err)}`);
  }
  assert.deepEqual(parts, full, `saved at ${saveAt} units on the ${savedOn}, restored on the other engine: the run went differently`);
  return true;
}

function linesHost(lines: string[]): Parameters<typeof runHeadless>[1] {
  return { print: (t) => lines.push('out ' + t), diagnostic: (_d, f) => lines.push('err ' + f), trace: (ev) => lines.push(JSON.stringify(ev)) };
}

function runLines(program: Program, opts: HeadlessOptions, lines: string[]): ReturnType<typeof runHeadless> {
  try {
    return runHeadless(program, linesHost(lines), opts);
  } catch (err) {
    assert.fail(`runHeadless threw (jit: ${opts.jit !== false}): ${(err as Error)?.stack ?? String(err)}`);
  }
}
