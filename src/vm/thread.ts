// A thread is a coroutine of the VM, and plain data: a register stack, a frame list
// and what it waits for. Suspending is returning from the run loop; nothing in
// JavaScript (no closure, no generator, no promise) holds a thread's state.
import type { Value } from './value.ts';

/** Words per frame in Thread.frames: handler, pc, base (register 0), dst (absolute register for the result). */
export const FRAME_WORDS = 4;

export type Wait =
  /** the game clock reaching Thread.wakeAt */
  | { kind: 'time' }
  /** the next display frame (polled builtins) */
  | { kind: 'display' }
  /** the next game frame (forceupdate) */
  | { kind: 'gameframe' }
  /** ready to run at the current time (delay (0), newly spawned) */
  | { kind: 'ready' };

export interface Thread {
  id: number;
  /** What started it, for :threads and error stacks: "startup", "loop scene steamhiss", … */
  origin: string;
  stack: (Value | undefined)[];
  /** FRAME_WORDS numbers per frame, innermost last. */
  frames: number[];
  /** What it waits for; null while running or finished. */
  wait: Wait | null;
  /** Game time at which it started waiting (for :threads). */
  since: number;
  /** Game time (units) at which a thread waiting on time wakes. A number on the thread
   * rather than in a fresh wait object: a thread that sleeps a tick at a time allocates nothing. */
  wakeAt: number;
  /** Builtin whose `resume` computes the value delivered on wake, or -1 for void. */
  resumeWith: number;
  /** Absolute register receiving that value. */
  resumeDst: number;
  /** Loop iterations since the last real frame (the runaway guard). */
  backEdges: number;
  /** Script calls since the last real frame: recursion that branches has no loop to count. */
  calls: number;
  /** Order in which it went to sleep, for waking threads due at the same time in order. */
  sleepSeq: number;
  done: boolean;
  /** What the thread's first handler returned (the REPL echoes it). */
  result: Value;
}

export function newThread(id: number, origin: string): Thread {
  return { id, origin, stack: [], frames: [], wait: null, since: 0, wakeAt: 0, resumeWith: -1, resumeDst: -1, backEdges: 0, calls: 0, sleepSeq: 0, done: false, result: null };
}
