// What every fuzzer asserts about one input. Plain node:assert, so the same checks run
// inside the fuzzing worker and in ordinary vitest tests (regressions).
import assert from 'node:assert/strict';
import { parseFile, parseRepl, isIncomplete } from '../../grammar/parser.ts';
import type { SyntaxProblem } from '../../grammar/ast.ts';
import type { LoadResult, SourceText } from '../../src/node/load.ts';
import { loadProgram } from '../../src/engine/load.ts';
import { formatDiagnostic, type Diagnostic } from '../../src/errors/diagnostic.ts';
import { runHeadless, continueHeadless, createHeadlessEngine, type HeadlessOptions } from '../../src/hosts/headless.ts';
import { readSnapshot, writeSnapshot } from '../../src/engine/snapshot.ts';
import { shownMessage } from '../../src/errors/text.ts';
import type { Program } from '../../src/vm/program.ts';
import { LiveWorld } from '../../src/hosts/live.ts';
import { SLICE_MS, SPIN_STEP } from '../../src/vm/guard.ts';
import { UNITS_PER_MS } from '../../src/time/units.ts';
import { TICK_PERIOD_MAX } from './spin.ts';

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
  assert.ok(Object.hasOwn(sources, file), `${where}: file "${file}" was not loaded (${JSON.stringify(message)})`);
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
  assert.ok(r?.ast && Array.isArray(r.ast.items), 'parseFile returned no AST');
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
  let r: ReturnType<typeof runHeadless>;
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
  for (const [name, out] of [
    ['generated code', fast],
    ['interpreter', slow],
  ] as const) {
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
    text = writeSnapshot(a.engine.state, a.engine.threadsForSave(), program, {
      kind: 'headless',
      fps: opts.fps,
      nextFrame: a.nextFrame,
      files: ['gen.pw'],
      seed: opts.seed ?? 1,
      loopGuard: opts.loopGuard ?? 100_000,
      input: [],
    });
  } catch (err) {
    assert.fail(`the world could not be saved at ${saveAt} units: ${(err as Error)?.message ?? String(err)}`);
  }
  let restored: ReturnType<typeof readSnapshot>;
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

/** How a spinning program is run live: the wall clock's step at every reading (ms), the engine, and where to save. */
export interface LiveSettings {
  perRead: number;
  jit: boolean;
  /** The world is saved at the first display frame from this one on that ends with a thread paused. */
  saveFrame: number;
}

/** Game time (ms) a spinning program may take headless: its tickers are done long before. */
const SPIN_UNTIL_MS = 10_000;
/** Display frames a live run may take before it counts as stuck. */
const LIVE_FRAMES = 20_000;

/** Lines by the thread that printed them: the first word of each (w1, t2…). */
function byThread(lines: string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const l of lines) (out[l.split(' ')[0]] ??= []).push(l);
  return out;
}

/** A live world on a wall clock that moves `perRead` ms at every reading and a display frame (1/60 s) at every frame. */
function virtualLive(program: Program, opts: { jit: boolean; loopGuard: number }, perRead: number) {
  let t = 0;
  const lines: { frame: number; text: string }[] = [];
  let frame = 0;
  const world = new LiveWorld(
    program,
    { print: (text) => lines.push({ frame, text }), diagnostic: (_d, f) => lines.push({ frame, text: 'error ' + f }) },
    { timer: false, wall: { now: () => (t += perRead) }, ...FUZZ_LIMITS, ...opts },
  );
  const next = (): void => {
    frame++;
    t += 1000 / 60;
    world.frame();
  };
  return { world, lines, next, frame: () => frame };
}

function noErrors(where: string, lines: string[]): void {
  for (const text of lines.filter((l) => l.startsWith('error '))) {
    assert.ok(!JS_STACK.test(text), `${where}: a JavaScript stack:\n${text}`);
    assert.ok(!text.includes('internal error'), `${where}: an internal error:\n${text}`);
    assert.fail(`${where}: a script error in a program that has none:\n${text}`);
  }
}

function liveFrames(where: string, f: () => void): void {
  try {
    f();
  } catch (err) {
    if (err instanceof assert.AssertionError) throw err;
    assert.fail(`${where} threw: ${(err as Error)?.stack ?? String(err)}`);
  }
}

/**
 * A program that spins where the guard does not count (test/fuzz/spin.ts), with
 * `workers` spinning threads and tickers on the game clock beside them:
 * - headless, both engines print the same, without an error;
 * - live, on a virtual wall clock, no frame lets more than its slice of spin through
 *   (the global `steps` counts it), the game clock moves every frame, a ticker still
 *   going ticks while a worker spins over many frames, and every thread prints what it
 *   prints headless — only the interleaving differs;
 * - saved at a frame that ends with a thread paused, the snapshot holds the pause and
 *   reads back; restored into a fresh live world and into a headless one, each on the
 *   other engine, the rest of the run prints what the unsaved run printed.
 * Returns the frames the live run took, the workers that spun over enough frames for
 * the tickers to be checked, and whether there was a paused thread to save.
 */
export function checkPreempt(program: Program, opts: { loopGuard: number }, live: LiveSettings): { frames: number; spunOver: number; saved: boolean } {
  const loopGuard = opts.loopGuard;
  const until = SPIN_UNTIL_MS * UNITS_PER_MS;
  const headless = checkRun(program, { fps: 60, until, seed: 1, ...FUZZ_LIMITS, loopGuard });
  noErrors(
    'headless',
    headless.stderr.map((f) => 'error ' + f),
  );
  assert.equal(headless.exit, 0, 'headless: exit 1 without an error');
  const expected = byThread(headless.stdout);
  const workers = Object.keys(expected).filter((k) => k.startsWith('w'));
  const tickers = Object.keys(expected).filter((k) => k.startsWith('t'));
  for (const w of workers) assert.ok(expected[w].length >= 2, `headless: ${w} printed no result`);

  const steps = program.globals.indexOf('steps');
  const l = virtualLive(program, { jit: live.jit, loopGuard }, live.perRead);
  const stepsNow = (): number => (l.world.engine.globals[steps] as number | undefined) ?? 0;
  // a look at the wall clock every SPIN_STEP iterations or calls (loops and calls together), a slice's worth of looks, and the frame's own readings
  const perFrame = (Math.ceil(SLICE_MS / live.perRead) + 4) * SPIN_STEP;
  // (set inside the frames' callback: TypeScript cannot follow it there)
  let saved = null as { text: string; lines: string[]; frame: number } | null;
  const save = (): void => {
    const e = l.world.engine;
    const text = writeSnapshot(l.world.stateForSave(), e.threadsForSave(), program, { kind: 'live', fps: 60, nextFrame: l.frame() + 1, files: ['gen.pw'], seed: 1, loopGuard, input: [] });
    saved = { text, lines: l.lines.map((x) => x.text), frame: l.frame() };
  };
  liveFrames('the live world', () => {
    let before = 0;
    let game = -1;
    l.world.start();
    for (;;) {
      const now = stepsNow();
      assert.ok(
        now - before <= perFrame,
        `live: frame ${l.frame()} let ${now - before} steps through (at most ${perFrame} fit its slice of ${SLICE_MS} ms, the clock moving ${live.perRead} ms a reading)`,
      );
      before = now;
      const c = l.world.engine.state.clock.game;
      assert.ok(c > game, `live: the game clock stood still at frame ${l.frame()}`);
      game = c;
      const paused = l.world.engine.liveThreads().some((th) => th.wait?.kind === 'paused');
      if (paused && (saved === null || (saved.frame < live.saveFrame && l.frame() >= live.saveFrame))) save();
      if (l.world.engine.isQuiet()) break;
      assert.ok(l.frame() < LIVE_FRAMES, `live: still running after ${LIVE_FRAMES} frames`);
      l.next();
    }
  });
  const printed = l.lines.map((x) => x.text);
  noErrors('live', printed);
  assert.deepEqual(byThread(printed), expected, 'live: a thread printed other lines than headless');

  // a ticker still going ticks while a worker spins: a paused thread goes to the back of
  // the ready queue, so a woken ticker waits at most a frame for each worker before it
  const patience = 2 * (TICK_PERIOD_MAX + workers.length + 2);
  let spunOver = 0;
  for (const w of workers) {
    const mine = l.lines.filter((x) => x.text.split(' ')[0] === w);
    const from = mine[0].frame;
    const to = mine[mine.length - 1].frame;
    if (to - from < patience) continue;
    const going = tickers.filter((t) => l.lines.filter((x) => x.text.split(' ')[0] === t && x.frame <= from).length < expected[t].length - 1);
    if (going.length === 0) continue;
    spunOver++;
    const ticks = l.lines.filter((x) => x.frame > from && x.frame <= to && going.includes(x.text.split(' ')[0]));
    assert.ok(ticks.length > 0, `live: ${w} spun from frame ${from} to ${to} and ${going.join(', ')} never ticked meanwhile`);
  }

  const at = saved as { text: string; lines: string[]; frame: number } | null;
  const shown = { frames: l.frame(), spunOver, saved: at !== null };
  if (at === null) return shown;
  const { text, lines: before } = at;
  const body = JSON.parse(text).body as { threads: { wait: string }[] };
  assert.ok(
    body.threads.some((th) => th.wait === 'paused'),
    'the snapshot lost the paused thread',
  );
  const read = () => {
    try {
      return readSnapshot(text, program);
    } catch (err) {
      assert.fail(`Pocketwatch refused its own snapshot of a paused thread: ${(err as Error)?.message ?? String(err)}\n${text.slice(0, 2000)}`);
    }
  };
  const other = !live.jit;
  // live again, on the other engine
  const r = read();
  const again = virtualLive(program, { jit: other, loopGuard }, live.perRead);
  liveFrames('the restored live world', () => {
    again.world.adopt(r.state, r.threads, r.changes);
    for (let k = 0; !again.world.engine.isQuiet(); k++) {
      assert.ok(k < LIVE_FRAMES, `restored live: still running after ${LIVE_FRAMES} frames`);
      again.next();
    }
  });
  const rest = again.lines.map((x) => x.text);
  noErrors('restored live', rest);
  assert.deepEqual(byThread([...before, ...rest]), expected, `saved live at frame ${at.frame} with a thread paused, restored live: a thread printed other lines`);
  // headless, on the other engine: the paused thread goes on at once
  const r2 = read();
  const out: string[] = [];
  const h = { print: (t: string) => out.push(t), diagnostic: (_d: Diagnostic, f: string) => out.push('error ' + f) };
  const hopts = { fps: 60, seed: 1, until, ...FUZZ_LIMITS, loopGuard, jit: other };
  try {
    const e = createHeadlessEngine(program, h, hopts);
    e.adopt(r2.state, r2.threads, r2.changes);
    continueHeadless(e, hopts, r2.host.nextFrame);
  } catch (err) {
    assert.fail(`the restored headless run threw: ${(err as Error)?.stack ?? String(err)}`);
  }
  noErrors('restored headless', out);
  assert.deepEqual(byThread([...before, ...out]), expected, `saved live at frame ${at.frame} with a thread paused, restored headless: a thread printed other lines`);
  return shown;
}
