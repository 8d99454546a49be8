// The runaway guard, in one place. A thread counts its loop iterations (back edges) and
// its handler calls since it last made progress in time; past the limit (--loop-guard,
// default 100 000 iterations and ten times as many calls; 0 turns it off) it stops with
// a runaway error. Progress is a wait that lets time pass for real (afterWait has the
// rule). A handler declared
// `on noloopcheck NAME` opts out: neither its loops nor its calls are counted.
import { ScriptError } from '../errors/diagnostic.ts';
import type { Thread } from './thread.ts';

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

export function runawayLoop(n: number, guard: number): never {
  throw new ScriptError(`runaway loop: ${n - 1} iterations without a rendered frame (the loop guard is ${guard}; use --loop-guard to change it, or "on noloopcheck" for this handler)`);
}

export function runawayCalls(guard: number): ScriptError {
  return new ScriptError(`runaway calls: ${guard * CALLS_PER_ITERATION} handler calls without a rendered frame (recursion that never ends? the limit follows --loop-guard)`);
}
