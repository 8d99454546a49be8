// The runaway guard, in one place. A thread counts its loop iterations (back edges) and
// its handler calls since it last made progress in time; past the limit (--loop-guard,
// default 100 000 iterations and ten times as many calls; 0 turns it off) it stops with
// a runaway error. Progress is a wait that lets time pass for real (afterWait has the
// rule). A handler declared
// `on noloopcheck NAME` opts out: neither its loops nor its calls are counted.
//
// What the guard does not count is still bounded, as spin: the loop iterations,
// calls and resumptions of uncounted code (noloopcheck, or the guard off) since game
// time last moved. The live host pauses a thread that spins past its slice of a frame
// (it goes on at the next frame, so the REPL keeps drawing and Ctrl-C can stop it);
// headless, where nothing else can happen until the thread waits, spin past HANG_SPIN
// is a hang, reported where the loop is.
//
// Work a builtin does inside one call (str of a big list, contains on one) is counted
// too, by items and characters, since time last moved: past WORK_LIMIT the thread
// stops, whatever the guard counts, so no script spends hours in builtins between two
// back edges.
import { ScriptError } from '../errors/diagnostic.ts';
import type { Thread, Wait } from './thread.ts';

/** The guard allows this many script calls per allowed loop iteration. */
export const CALLS_PER_ITERATION = 10;

/** What happened while a thread waited. */
export type Progress = 0 | 1 | 2;
/** Nothing: it yielded to the other ready threads (delay (0)), or it has just been started. */
export const NO_PROGRESS = 0;
/** A set amount of game or wall time passed: delay (n) with n ≥ 1, a fade, walldelay. */
export const TIME_PASSED = 1;
/** A frame came: forceupdate and the polled builtins (voicedone, stilldown). */
export const FRAME_DRAWN = 2;

/**
 * The reset rule. A thread's counts start again when it made progress in time: after
 * a wait that let time pass, in every host — so a patrol written as `while … delay (30)
 * … endwhile` runs for a game day — and after a frame wait only when the frame was
 * really drawn (`realFrames`: the live host), so headless a stuck poll loop fails fast
 * instead of hanging a test, while an interactive one can run for minutes.
 */
export function afterWait(th: Thread, progress: Progress, realFrames: boolean): void {
  if (progress === TIME_PASSED || (progress === FRAME_DRAWN && realFrames)) resetOnProgress(th);
}

/** The thread made progress in time: its counts start again. */
export function resetOnProgress(th: Thread): void {
  th.backEdges = 0;
  th.calls = 0;
}

/** Counts one handler call made by a counted (not noloopcheck) handler. */
export function countCall(th: Thread, guard: number): void {
  if (++th.calls > guard * CALLS_PER_ITERATION && guard > 0) throw runawayCalls(guard);
}

/**
 * The loop check as generated code: `counter` is the variable holding the thread's
 * iteration count, `guard` the limit, `place` a statement recording where the loop is.
 * Both engines emit exactly this at every back edge of a counted handler.
 */
export function backEdgeCheck(counter: string, guard: string, place: string): string {
  return `if (++${counter} > ${guard} && ${guard} > 0) { ${place} GUARD.runawayLoop(${counter}, ${guard}); }`;
}

/**
 * (The templates call spun () as SPUN, a name of its own rather than a property of
 * GUARD: it first runs thousands of iterations into a loop, and code optimised before
 * then would otherwise lack type feedback for reading it and be thrown away there.)
 *
 * The spin count as generated code, at a back edge the guard does not count: `place`
 * records where the loop is, `pause` is what pauses the thread (nothing where it cannot
 * be paused). The VM context is `e`. The count is the VM's, shared with calls, not the
 * running frame's: a loop that returns (or calls) before SPIN_STEP iterations still counts.
 */
export function spinCheck(place: string, pause: string): string {
  return `if ((++e.spin & ${SPIN_STEP - 1}) === 0) { ${place} if (SPUN(e)) { ${pause} } }`;
}

/**
 * The interpreter's spin count at a back edge the guard does not count: the iteration
 * counts as `weight`, the words of its loop's code, since each of them costs the
 * interpreter about what a whole iteration costs generated code. The budget is looked
 * at whenever the count passes a multiple of SPIN_STEP.
 */
export function weighedSpinCheck(weight: string, pause: string): string {
  return `{ const was = e.spin; e.spin += ${weight}; if ((was ^ e.spin) >= ${SPIN_STEP} && SPUN(e)) { ${pause} } }`;
}

/** The spin count of an uncounted call, as a generated expression: true when the thread should pause (see spinCheck). */
export function callSpin(): string {
  return `((++e.spin & ${SPIN_STEP - 1}) === 0 && SPUN(e))`;
}

export function runawayLoop(n: number, guard: number): never {
  throw new ScriptError(`runaway loop: ${n - 1} iterations without a rendered frame (the loop guard is ${guard}; use --loop-guard to change it, or "on noloopcheck" for this handler)`);
}

export function runawayCalls(guard: number): ScriptError {
  return new ScriptError(`runaway calls: ${guard * CALLS_PER_ITERATION} handler calls without a rendered frame (recursion that never ends? the limit follows --loop-guard)`);
}

/** Spin (uncounted back edges and calls) between two looks at the spin budget. */
export const SPIN_STEP = 4096;
/** Wall time (ms) per display frame that spinning threads may take in the live host: about half a frame, the rest is the host's. */
export const SLICE_MS = 8;
/**
 * The slice in spin, for a live host that must replay exactly what it ran (the REPL,
 * whose history rebuilds earlier moments): a slice measured on the wall clock would
 * pause a loop at different places in the replay.
 */
export const SLICE_SPIN = 2 ** 20;
/** Spin headless before a loop that never waits is called a hang (a tight loop's second or so). */
export const HANG_SPIN = 2 ** 28;
/** What resuming a thread counts as spin (a delay (0) loop spins through the scheduler). */
export const RESUME_SPIN = 16;

/** What the spin budget needs from whoever runs the VM. */
export interface Spinner {
  /** Spin since game time last moved. */
  spin: number;
  /** True in the live host, which pauses spinning threads instead of failing them. */
  readonly preemptive: boolean;
  /** Whether this frame's slice of wall time is spent (the live host; always false headless). */
  sliceOver(): boolean;
  /** A wall-time limit on what runs now (a debugger's evaluation: it must not hold the debugger), or null. */
  cutoff: Cutoff | null;
}

/** Past `at` on its clock, the running thread stops with the error `why`. */
export interface Cutoff {
  now(): number;
  at: number;
  why: string;
}

/** A thread paused by the live host, back in the ready queue: it goes on at the next frame. */
export const PAUSED: Wait = { kind: 'paused' };

/** One wait of each kind a saved or copied thread can have (never a debugger's stop), PAUSED among them. */
export const WAIT_OF_KIND: Readonly<Record<string, Wait>> = {
  time: { kind: 'time' },
  wall: { kind: 'wall' },
  display: { kind: 'display' },
  gameframe: { kind: 'gameframe' },
  ready: { kind: 'ready' },
  paused: PAUSED,
  host: { kind: 'host' },
};

/**
 * A look at the spin budget, every SPIN_STEP of spin. True when the thread should pause
 * now (live host, slice spent); headless, throws the hang error once the budget is spent.
 */
export function spun(vm: Spinner): boolean {
  if (vm.cutoff !== null && vm.cutoff.now() >= vm.cutoff.at) throw new ScriptError(vm.cutoff.why);
  if (vm.preemptive) return vm.sliceOver();
  if (vm.spin >= HANG_SPIN) throw hang();
  return false;
}

/**
 * A thread is resumed. One in code the guard does not count (`uncounted`) that keeps
 * yielding without time moving spins; a counted one is bounded by the guard (delay (0)
 * never resets it) and by the threads one moment may start, so its resumptions are no
 * spin: a world without uncounted code is never paused, and its game-time results never
 * depend on how fast the machine is.
 */
export function resumed(vm: Spinner, uncounted: boolean): void {
  if (!uncounted) return;
  vm.spin += RESUME_SPIN;
  if (vm.spin >= HANG_SPIN && !vm.preemptive) throw hang();
}

/** Marks th paused (the VM then hands it back as suspended). */
export function pause(th: Thread): void {
  th.wait = PAUSED;
}

function hang(): ScriptError {
  return new ScriptError(
    `hang: ${HANG_SPIN} loop iterations and calls without waiting, where the runaway guard does not count them (noloopcheck, or --loop-guard 0); headless, the game clock cannot move on (nor reach --until) until this thread waits`,
  );
}

/** Items and characters builtins may walk through since time last moved (about a second of work). */
export const WORK_LIMIT = 2 ** 25;

/** What the work budget needs from whoever runs the builtins. */
export interface Worker {
  /** Builtin work since game time last moved (or, live, since the frame began). */
  work: number;
}

/** Counts `units` of work done by a builtin; past the budget the calling thread stops. */
export function worked(vm: Worker, units: number): void {
  if ((vm.work += units) > WORK_LIMIT) {
    vm.work = 0;
    throw new ScriptError(`runaway work: builtins walked through more than ${WORK_LIMIT} items and characters without time moving (str, contains or == of big lists in a loop?)`);
  }
}
