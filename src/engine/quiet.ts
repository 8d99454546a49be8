// Quiet heartbeat passes: most passes of a running world only count — walks move or
// turn without arriving, no loop or cricket fires, nobody runs but the boot library's
// calctime, which only counts. Such passes are done here in one go, k at a time, leaving the world exactly
// as k ordinary passes would (counters, countdowns, walkers' places, pose frames, the pocketwatch, the
// thread and sleep numbers calctime's threads would have taken). The frame driver
// serves them this way and lets display frames through them cheaply (engine/frames.ts).
import type { Program } from '../vm/program.ts';
import type { Value } from '../vm/value.ts';
import type { WorldState } from '../world/state.ts';
import { quietWalkSteps, walkQuietly, type ActorState } from '../world/walk.ts';
import { stepPoses } from '../world/pose.ts';
import { countCricketsDown, quietCricketSteps } from '../world/cricket.ts';
import { countLoopsDown, quietLoopSteps } from '../time/loops.ts';
import { STDLIB } from '../compiler/stdlib.ts';

/** What counting passes needs to know of the engine. */
export interface QuietHost {
  /** The world state as it stands, without applying quiet passes still owed (frames.ts): what counting them works on. */
  readonly stateAsIs: WorldState;
  readonly program: Program;
  readonly globals: (Value | undefined)[];
  readonly halted: boolean;
  /** Live threads: calctime runs only in a pass where there are none. */
  readonly threadCount: number;
  /** Threads ready to run (paused by a live host's slice, answered by the host): each moment runs them. */
  readonly readyCount: number;
  /**
   * Whether a calctime thread may be counted rather than run: nobody follows thread
   * starts, watches variables after a heartbeat, traces thread runs or steps through code.
   */
  readonly calctimeUnwatched: boolean;
  /** Every actor, in load order, as it stands (stateAsIs's). */
  actorsAsIs(): readonly ActorState[];
}

const BOOT = STDLIB.find((f) => f.file === 'stdlib/boot.pw');

/** Where the boot library's pocketwatch counts (its calls and whole seconds), if calctime is its own. */
interface Pocketwatch {
  calls: number;
  seconds: number;
}

const pocketwatches = new WeakMap<Program, Pocketwatch | null>();
/** The program asked about last, and its answer: asked every pass, a WeakMap lookup each time was a few percent of a run. */
let lastProgram: Program | null = null;
let lastWatch: Pocketwatch | null = null;

/** The global slots of the boot library's pocketwatch, when the program's calctime is the boot library's. */
function pocketwatchOf(p: Program): Pocketwatch | null {
  if (p === lastProgram) return lastWatch;
  let w = pocketwatches.get(p);
  if (w === undefined) {
    w = findPocketwatch(p);
    pocketwatches.set(p, w);
  }
  lastProgram = p;
  lastWatch = w;
  return w;
}

function findPocketwatch(p: Program): Pocketwatch | null {
  const h = p.globalHandlers.calctime;
  if (BOOT === undefined || h === undefined || p.handlers[h].file !== BOOT.file || p.sources[BOOT.file] !== BOOT.source) return null;
  const calls = p.globals.indexOf('pw_calls');
  const seconds = p.globals.indexOf('pw_seconds');
  return calls >= 0 && seconds >= 0 ? { calls, seconds } : null;
}

/** Counters the boot library's calctime can count k passes of at once: whole numbers well inside exact range. */
function countable(v: Value | undefined): v is number {
  return typeof v === 'number' && Number.isInteger(v) && Math.abs(v) < 2 ** 48;
}

/**
 * Whether the boot library's calctime would run in the coming passes and may be counted
 * instead (no thread lives, nobody watches, its counters are countable): true; false when
 * it would not run at all; null when it would run and must run (such a pass is not quiet).
 */
export function calctimeCounted(host: QuietHost): boolean | null {
  const p = host.program;
  if (host.threadCount !== 0 || p.globalHandlers.calctime === undefined) return false;
  const w = pocketwatchOf(p);
  if (w === null || !host.calctimeUnwatched || !countable(host.globals[w.calls]) || !countable(host.globals[w.seconds])) return null;
  return true;
}

/**
 * How many of the coming heartbeat passes would only count: 0 when the next one has
 * work (input waiting, a thread ready to run, a walk about to end a turn or a leg, a
 * loop or cricket about to fire, a calctime of the world's own to run); Infinity when
 * none ever would while nothing else happens. Each service says how long it stays quiet.
 * `calctime`: calctimeCounted (host), if the caller has it.
 */
export function quietPasses(host: QuietHost, calctime: boolean | null = calctimeCounted(host)): number {
  const st = host.stateAsIs;
  if (host.halted || st.mailbox.length > 0 || host.readyCount > 0) return 0;
  if (calctime === null) return 0;
  let quiet = quietLoopSteps(st.loops);
  if (st.set !== '') quiet = Math.min(quiet, quietCricketSteps(st.crickets, st.set, st.sound.slots[1], st.wallNow));
  for (const a of host.actorsAsIs()) if (a.walk !== null && quiet > 0) quiet = Math.min(quiet, quietWalkSteps(a));
  return quiet > 0 ? quiet : 0;
}

/** Does k quiet passes (k <= quietPasses(host)): what they would count, counted; `calctime`: calctimeCounted(host) when they began. */
export function passQuietly(host: QuietHost, k: number, calctime: boolean): void {
  const st = host.stateAsIs;
  st.steps += k;
  countLoopsDown(st.loops, k);
  if (st.set !== '') countCricketsDown(st.crickets, st.set, k);
  const actors = host.actorsAsIs();
  for (const a of actors) if (a.walk !== null) walkQuietly(a, k);
  stepPoses(actors, st.poses, k);
  if (calctime) countCalctime(host, k);
}

/**
 * k runs of the boot library's calctime: pw_calls counts up, and at 20 goes back to 0
 * and pw_seconds counts one more. Each run was a thread: it took a thread number and a
 * place in the wake order.
 */
export function countCalctime(host: QuietHost, k: number): void {
  const w = pocketwatchOf(host.program)!;
  const g = host.globals;
  let calls = g[w.calls] as number;
  let seconds = g[w.seconds] as number;
  // the first run that reaches 20 (the very first, if a script set it past 20)
  const first = calls < 19 ? 20 - calls : 1;
  if (k < first) calls += k;
  else {
    const after = k - first;
    seconds += 1 + Math.floor(after / 20);
    calls = after % 20;
  }
  g[w.calls] = calls;
  g[w.seconds] = seconds;
  const st = host.stateAsIs;
  st.nextThreadId += k;
  st.sleepSeq += k;
}
