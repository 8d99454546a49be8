// The Pocketwatch side of the benchmarks. run.mjs bundles this file with esbuild (so
// no TypeScript is needed at run time); bench.test.ts imports it directly to check the
// results at tiny sizes.
//
// Every benchmark is split in two: prepare (untimed: load, compile, boot) returns go
// (timed: only the work being measured).
//
// Everything the benchmarks use of Pocketwatch is in the `pw` object below and nowhere
// else in test/bench/: when the engine's interface changes, that one section is adapted.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { SourceText } from '../../src/node/load.ts';
import { loadProgram } from '../../src/engine/load.ts';
import { Engine, type EngineHost } from '../../src/engine/engine.ts';
import { BUILTINS } from '../../src/builtins/index.ts';
import { createHeadlessEngine, continueHeadless } from '../../src/hosts/headless.ts';
import { TICK_UNITS, parseDuration } from '../../src/time/units.ts';
import { formatDiagnostic } from '../../src/errors/diagnostic.ts';
import { compile as compilePublic, World as PublicWorld, type Program as PublicProgram } from '../../src/api/index.ts';

// ---- the engine surface ------------------------------------------------------------------

type World = Engine;
type Program = NonNullable<ReturnType<typeof loadProgram>['program']>;

/** What a benchmark's host keeps: prints are counted, not written; script errors are kept. */
interface Host {
  prints: number;
  errors: string[];
}

/** Engine options the benchmarks set: the runaway guard and the live-thread limit. */
interface Limits {
  loopGuard?: number;
  maxThreads?: number;
}

/** What `pw run` uses when no option is given. */
const HEADLESS = { fps: 60, seed: 1 };

function engineHost(host: Host): EngineHost {
  return {
    print: () => void host.prints++,
    diagnostic: (_d, formatted) => void host.errors.push(formatted),
  };
}

const pw = {
  /** Boot library (read from `root`: the bundle runs from a temporary folder) + sources → program. */
  compile(root: string, sources: SourceText[]): Program {
    const r = loadProgram([...pwFiles(root, 'stdlib'), ...sources], false);
    if (!r.program) {
      const text = r.diagnostics.map((d) => formatDiagnostic(d, r.sources[d.file])).join('\n');
      throw new Error(`the benchmark script does not compile:\n${text}`);
    }
    return r.program;
  },
  handlerCount: (p: Program): number => p.handlers.length,
  /** A booted engine (startup handlers run) with no display: the host drives the game clock. */
  boot(program: Program, host: Host, limits: Limits = {}): World {
    const e = new Engine(program, BUILTINS, engineHost(host), limits);
    e.boot(0);
    return e;
  },
  /** A booted engine in the headless host, as `pw run` makes it (display frames at 60 fps, seed 1). */
  bootHeadless(program: Program, host: Host, limits: Limits = {}): World {
    const e = createHeadlessEngine(program, engineHost(host), { ...HEADLESS, ...limits });
    e.boot(0);
    return e;
  },
  /** Starts a thread in a global handler; it runs to its first wait (or its end) before this returns. */
  start(e: World, handler: string, args: number[]): void {
    if (!e.deliverGlobal(handler, args, 'bench')) throw new Error(`no global handler "${handler}"`);
  },
  /** The value returned by the last thread that finished (cleared with clearResult). */
  lastResult: (e: World): unknown => e.lastResult,
  clearResult(e: World): void {
    e.lastResult = undefined as never;
  },
  threads: (e: World): number => e.threadCount,
  global(e: World, name: string): unknown {
    const i = e.program.globals.indexOf(name);
    if (i < 0) throw new Error(`the script declares no global ${name}`);
    return e.globals[i];
  },
  /** Game time now, in time units. */
  now: (e: World): number => e.now,
  /** n ticks in time units. */
  ticks: (n: number): number => n * TICK_UNITS,
  duration: (text: string): number => parseDuration(text),
  /** Runs everything due up to game time t (units): heartbeat steps and wake-ups, in order. */
  advanceTo(e: World, t: number): void {
    e.advanceTo(t);
  },
  /** Headless display frames from `frame` on, up to game time `until` (units); returns the next frame. */
  runUntil(e: World, until: number, frame: number): { next: number; exit: number } {
    const r = continueHeadless(e, { until, fps: HEADLESS.fps }, frame);
    return { next: r.nextFrame, exit: r.exit };
  },
  heartbeatSteps: (e: World): number => e.state.steps,

  // the public API, as a game server uses it (src/api: compile, World)
  /** A folder's scripts compiled by the public compile () (the boot library is built in). */
  compilePublic: (root: string, dir: string): PublicProgram => compilePublic(pwFiles(root, dir).map((f) => ({ name: f.file, text: f.source }))),
  /** A started public World (fps 60, seed 1, the world halts at a script error). */
  startWorld(program: PublicProgram): PublicWorld {
    const w = new PublicWorld(program);
    w.start();
    return w;
  },
  /** The world's next display frame at its fps. */
  frame: (w: PublicWorld): void => w.frame(),
  /** Wall-clock ms of a world's last frame, and whether a script error happened. */
  wallMs: (w: PublicWorld): number => w.wallTime,
  failed: (w: PublicWorld): boolean => w.errors > 0 || w.halted,
};

// ---- the benchmarks ------------------------------------------------------------------------

export type Go = () => unknown;

/** The .pw files of a folder, sorted, named relative to `root` (what `pw run` does). */
function pwFiles(root: string, dir: string): SourceText[] {
  return readdirSync(join(root, dir))
    .filter((f) => f.toLowerCase().endsWith('.pw'))
    .sort()
    .map((f) => ({ file: `${dir}/${f}`, source: readFileSync(join(root, dir, f), 'utf8') }));
}

const newHost = (): Host => ({ prints: 0, errors: [] });

function check(host: Host): void {
  if (host.errors.length > 0) throw new Error(`script error during the benchmark:\n${host.errors.join('\n')}`);
}

/** Wall and CPU time (ms) of the parts of one run: each lap() ends one part. */
function stopwatch(): { laps: { wall: number[]; cpu: number[] }; lap(): void } {
  let wall = performance.now();
  let cpu = process.cpuUsage();
  const laps = { wall: [] as number[], cpu: [] as number[] };
  return {
    laps,
    lap() {
      const used = process.cpuUsage(cpu);
      const now = performance.now();
      laps.wall.push(now - wall);
      laps.cpu.push((used.user + used.system) / 1e3);
      wall = now;
      cpu = process.cpuUsage();
    },
  };
}

/** Headless display frames up to game time `until`; a script error stops the benchmark. Returns the next frame. */
function runChecked(e: World, host: Host, until: number, frame: number): number {
  const r = pw.runUntil(e, until, frame);
  check(host);
  if (r.exit !== 0) throw new Error('the world stopped with a script error');
  return r.next;
}

/**
 * A micro-benchmark: a script with `on bench (n)` returning a value. Each run is a new
 * thread started by the host and run to completion (a `delay (0)` inside it yields to
 * the engine's scheduler, which resumes it at once); its result is the thread's result.
 */
export function micro(root: string, source: string): { prepare(n: number): Go } {
  const host = newHost();
  // The loops run millions of iterations by design: no runaway guard.
  const e = pw.boot(pw.compile(root, [{ file: 'bench.pw', source }]), host, { loopGuard: 0 });
  check(host);
  return {
    prepare(n) {
      return () => {
        pw.clearResult(e);
        pw.start(e, 'bench', [n]);
        check(host);
        if (pw.threads(e) !== 0) throw new Error('the bench thread did not finish');
        return pw.lastResult(e);
      };
    },
  };
}

/**
 * Host-driven suspend/resume round trips: one script thread loops on `delay (1)`; the
 * host advances the game clock one tick at a time, which wakes the thread once per tick
 * and runs it to its next delay. A heartbeat service pass also happens every third
 * tick, as in any world. Returns the number of wake-ups the script counted.
 */
export function resume(root: string, source: string): { prepare(n: number): Go } {
  const program = pw.compile(root, [{ file: 'resume.pw', source }]);
  return {
    prepare(n) {
      const host = newHost();
      const e = pw.boot(program, host, { loopGuard: 0 });
      pw.start(e, 'spinner', []); // runs to its first delay
      check(host);
      const t0 = pw.now(e);
      const tick = pw.ticks(1);
      return () => {
        for (let k = 1; k <= n; k++) pw.advanceTo(e, t0 + k * tick);
        check(host);
        return pw.global(e, 'resumes');
      };
    },
  };
}

/**
 * Headless fast-forward of a world folder for `laps` spans of game time (an hour each
 * unless told) in one run, as `pw run DIR --until …` does it (fps 60, seed 1). Each
 * span is timed on its own, in wall and CPU time (booting counts in the first), so the
 * first hour of a fresh world and the later ones can be told apart.
 */
export function fastForward(root: string, dir: string, laps: number, lap = '1h'): { prepare(): Go } {
  const program = pw.compile(root, pwFiles(root, dir));
  const span = pw.duration(lap);
  return {
    prepare() {
      return () => {
        const host = newHost();
        const watch = stopwatch();
        const e = pw.bootHeadless(program, host);
        let frame = 1;
        for (let k = 1; k <= laps; k++) {
          frame = runChecked(e, host, k * span, frame);
          watch.lap();
        }
        return { value: { prints: host.prints, steps: pw.heartbeatSteps(e) }, laps: watch.laps };
      };
    },
  };
}

export const SLEEPER_SOURCE = `-- One of many threads that sleep random delays forever; naps counts the wake-ups.
global naps

on startup
  naps = 0
end

on sleeper
  while true
    delay (random (600))
    naps = naps + 1
  endwhile
end
`;

/** Threads started per tick: the engine refuses 100 000 thread starts at one moment of game time as runaway events. */
export const STARTS_PER_TICK = 50_000;

/**
 * `count` threads each sleeping random delays (0..600 ticks) for `until` of game time,
 * in the headless host, with the live-thread limit (maxThreads) raised to `count`.
 * Starting the threads is part of the measured work, STARTS_PER_TICK in each tick.
 * The run goes a game minute at a time, each timed on its own (`laps`: the start, then
 * each minute); with a wall budget (ms) it stops after the first minute that ends past
 * it, so a slow engine cannot take the whole command's time.
 */
export function sleepers(root: string, count: number, until: string, budgetMs = Infinity): { prepare(): Go } {
  const program = pw.compile(root, [{ file: 'sleepers.pw', source: SLEEPER_SOURCE }]);
  const end = pw.duration(until);
  const minute = pw.duration('1m');
  return {
    prepare() {
      const host = newHost();
      const e = pw.bootHeadless(program, host, { maxThreads: Math.max(count, 20_000) });
      check(host);
      return () => {
        const started = performance.now();
        const watch = stopwatch();
        let frame = 1;
        let reached = 0;
        for (let n = 0; n < count; ) {
          const batch = Math.min(STARTS_PER_TICK, count - n);
          for (let i = 0; i < batch; i++) pw.start(e, 'sleeper', []);
          n += batch;
          check(host);
          if (n < count) {
            reached += pw.ticks(1);
            frame = runChecked(e, host, reached, frame);
          }
        }
        if (pw.threads(e) !== count) throw new Error(`expected ${count} live threads, found ${pw.threads(e)}`);
        watch.lap();
        while (reached < end && performance.now() - started <= budgetMs) {
          reached = Math.min(end, (Math.floor(reached / minute) + 1) * minute);
          frame = runChecked(e, host, reached, frame);
          watch.lap();
        }
        return { value: { threads: pw.threads(e), naps: pw.global(e, 'naps'), minutes: reached / minute }, laps: watch.laps };
      };
    },
  };
}

/** Parse + compile (boot library included, as every load does) of one big script; returns the handler count. */
export function parseCompile(root: string, text: string): { prepare(): Go } {
  return {
    prepare() {
      return () => pw.handlerCount(pw.compile(root, [{ file: 'generated.pw', source: text }]));
    },
  };
}

/**
 * The handler count of a compiled generateScript(…) of `blocks` blocks, worked out from
 * the counts at 0 and 1 block (so it does not depend on how a block compiles).
 */
export function generatedHandlers(root: string, blocks: number): number {
  const count = (b: number) => pw.handlerCount(pw.compile(root, [{ file: 'generated.pw', source: generateBlocks(b) }]));
  const none = count(0);
  return none + blocks * (count(1) - none);
}

/**
 * Heap kept by the compiled program of `text`, in bytes: heap used after a full
 * collection with the program still referenced, minus heap used before (the source
 * text already exists then). Needs node --expose-gc.
 */
export function retainedHeap(root: string, text: string): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('retainedHeap needs node --expose-gc');
  gc();
  const before = process.memoryUsage().heapUsed;
  const program = pw.compile(root, [{ file: 'generated.pw', source: text }]);
  gc();
  const after = process.memoryUsage().heapUsed;
  if (pw.handlerCount(program) === 0) throw new Error('the generated script compiled to nothing'); // the program is alive up to here
  return after - before;
}

/**
 * A generated script of at least `bytes` bytes, in the shape of real worlds: object
 * blocks with properties and handlers, global handlers with loops, branches, lists,
 * strings and calls. Every name is distinct, so it compiles.
 */
export function generateScript(bytes: number): string {
  return generateBlocks(scriptBlocks(bytes));
}

/** How many blocks generateScript(bytes) writes. */
export function scriptBlocks(bytes: number): number {
  let blocks = 0;
  for (let size = HEAD.length; size < bytes; blocks++) size += block(blocks).length;
  return blocks;
}

function generateBlocks(blocks: number): string {
  const parts = [HEAD];
  for (let k = 0; k < blocks; k++) parts.push(block(k));
  return parts.join('');
}

const HEAD = '-- generated for the parse + compile benchmark\nglobal score, visits\n\non startup\n  score = 0\n  visits = 0\nend\n';

function block(k: number): string {
  return `
-- room ${k}: a set that re-arms its own loop
set room${k}
  property pressure = ${k % 17}
  property label = "room ${k}"

  on openset
    visits = visits + 1
    makeloop ("scene", "tick${k}", 40 + random (20))
  end

  on tick${k}
    if pressure mod 2 = 0 then
      print (label .. " is even at " .. pressure)
    elseif pressure > 10 and visits < 3 then
      pressure = 0
    else
      pressure = pressure + 1
    endif
    makeloop ("scene", "tick${k}", 45)
  end
endset

on helper${k} (a, b)
  total = 0
  for i = 1 to a step 2
    total = total + i * b - (i mod 3)
  endfor
  while total > 100
    total = total / 2
  endwhile
  names = ["a${k}", "b", [1, 2, 3]]
  if contains (names[1], "a") | not (total <> 0) then
    score = score + count (names)
  endif
  return total .. " / " .. substr ("helper${k}", 1, 6)
end
`;
}

// ---- many worlds in one process ----------------------------------------------------------

/** Display frames at 60 fps in a span of game seconds. */
const framesIn = (seconds: number): number => seconds * 60;

/** Gives every world `frames` display frames, round-robin: frame k of every world, then frame k + 1. */
function roundRobin(worlds: PublicWorld[], frames: number): void {
  for (let k = 0; k < frames; k++) for (let i = 0; i < worlds.length; i++) pw.frame(worlds[i]);
}

/** Every world is at the wall time its frames reach, with no script error: the summary a run returns. */
function checkWorlds(worlds: PublicWorld[], frames: number): { worlds: number; frames: number; wallMs: number } {
  const wallMs = Math.floor((frames * 1000) / 60);
  for (const w of worlds) {
    if (pw.failed(w)) throw new Error('a world stopped with a script error');
    if (pw.wallMs(w) !== wallMs) throw new Error(`a world is at ${pw.wallMs(w)} ms of wall time after ${frames} frames, not ${wallMs}`);
  }
  return { worlds: worlds.length, frames, wallMs };
}

/**
 * `count` started worlds of a folder (public World, fps 60), given display frames at 60
 * fps round-robin: `warmSeconds` of game time untimed (prepare), then `seconds` timed.
 * The value: the worlds, frames given and wall time reached (the same every run).
 */
export function worldFrames(root: string, dir: string, count: number, warmSeconds: number, seconds: number): { prepare(): Go } {
  const program = pw.compilePublic(root, dir);
  return {
    prepare() {
      const worlds = Array.from({ length: count }, () => pw.startWorld(program));
      roundRobin(worlds, framesIn(warmSeconds));
      return () => {
        roundRobin(worlds, framesIn(seconds));
        return checkWorlds(worlds, framesIn(warmSeconds + seconds));
      };
    },
  };
}

/**
 * The whole job of running many worlds: compile, start `count` worlds and give them
 * `seconds` of display frames at 60 fps, round-robin (all timed: run.mjs compares
 * 10 000 worlds × 10 s with 1 000 × 100 s).
 */
export function manyWorlds(root: string, dir: string, count: number, seconds: number): { prepare(): Go } {
  return {
    prepare() {
      return () => {
        const program = pw.compilePublic(root, dir);
        const worlds = Array.from({ length: count }, () => pw.startWorld(program));
        roundRobin(worlds, framesIn(seconds));
        return checkWorlds(worlds, framesIn(seconds));
      };
    },
  };
}

/**
 * Heap per started world, in bytes: heap used after a full collection with `count`
 * started worlds alive, minus before (the program compiled, one world already run, so
 * code generated on first use is not counted), over `count`. Each run adds its figure
 * to `perWorld` (run.mjs reads them; a run's value is the count, the same every time).
 * Needs node --expose-gc.
 */
export function worldHeap(root: string, dir: string, count: number): { prepare(): Go; perWorld: number[] } {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('worldHeap needs node --expose-gc');
  const program = pw.compilePublic(root, dir);
  roundRobin([pw.startWorld(program)], framesIn(10));
  const perWorld: number[] = [];
  return {
    perWorld,
    prepare() {
      return () => {
        gc();
        gc();
        const before = process.memoryUsage().heapUsed;
        const worlds = Array.from({ length: count }, () => pw.startWorld(program));
        gc();
        gc();
        const after = process.memoryUsage().heapUsed;
        perWorld.push((after - before) / count);
        return checkWorlds(worlds, 0).worlds;
      };
    },
  };
}
