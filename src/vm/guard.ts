// The runaway guard, in one place. A thread counts its loop iterations (back edges) and
// its handler calls since it last made progress in time; past the limit (--loop-guard,
// default 100 000 iterations and ten times as many calls; 0 turns it off) it stops with
// a runaway error. Progress is a wait that lets time pass for real; what counts as one
// is decided by whoever wakes the thread (see resetOnProgress). A handler declared
// `on noloopcheck NAME` opts out: neither its loops nor its calls are counted.
import { ScriptError } from '../errors/diagnostic.ts';
import type { Thread } from './thread.ts';

/** The guard allows this many script calls per allowed loop iteration. */
export const CALLS_PER_ITERATION = 10;

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
