// A thread is a coroutine of the VM, and plain data: a register stack, its frames
// and what it waits for. Suspending is returning from the run loop; nothing in
// JavaScript (no closure, no generator, no promise) holds a thread's state.
import type { Value } from './value.ts';

/** Words per frame in Thread.frames: handler, pc, base (register 0), dst (absolute register for the result). */
export const FRAME_WORDS = 4;

export type Wait =
  /** the game clock reaching Thread.wakeAt */
  | { kind: 'time' }
  /** the wall clock reaching Thread.wakeAt (walldelay, fades) */
  | { kind: 'wall' }
  /** the next display frame (polled builtins) */
  | { kind: 'display' }
  /** the next game frame (forceupdate) */
  | { kind: 'gameframe' }
  /** ready to run at the current time (delay (0), newly spawned) */
  | { kind: 'ready' }
  /** ready, paused by the live host mid-loop after spinning through its slice of a frame (vm/guard.ts) */
  | { kind: 'paused' }
  /** stopped before an instruction by a debugger (pw dap); nothing else runs meanwhile */
  | { kind: 'debugger' }
  /** a host builtin's answer (the request is in the world state's table) */
  | { kind: 'host' };

export interface Thread {
  /** The innermost frame lives on the thread itself: a thread that waits in its first
   * handler (most do) is resumed without touching its frame list. -1 once finished. */
  hi: number;
  /** Where the innermost frame resumes (after a call, the instruction that follows it). */
  pc: number;
  /** Absolute register of the innermost frame's register 0. */
  base: number;
  /** Absolute register receiving the innermost frame's result; -1 for the first handler. */
  dst: number;
  /** The callers' frames, FRAME_WORDS numbers each, innermost last (empty for most threads). */
  frames: number[];
  stack: (Value | undefined)[];
  /** What it waits for; null while running or finished. */
  wait: Wait | null;
  /** Game time (units) at which a thread waiting on time wakes (wall time for a wait on the wall).
   * A number on the thread rather than in a fresh wait object: a thread that sleeps a tick at a
   * time allocates nothing. */
  wakeAt: number;
  /** Order in which it went to sleep, for waking threads due at the same time in order. */
  sleepSeq: number;
  /** Builtin whose `resume` computes the value delivered on wake, or -1 for void. */
  resumeWith: number;
  /** Absolute register receiving that value. */
  resumeDst: number;
  /** Loop iterations since the last real frame (the runaway guard). */
  backEdges: number;
  /** Game time at which it started waiting (for :threads). */
  since: number;
  done: boolean;
  /** Script calls since the last real frame: recursion that branches has no loop to count. */
  calls: number;
  /** Handler calls in progress: its frames, and the calls generated code makes without one. */
  depth: number;
  /** The builtin call being made, as handler × SITE_SPAN + pc: where a builtin's warning points. */
  site: number;
  /** Its place in the engine's list of live threads; -1 when not in it. */
  slot: number;
  id: number;
  /** What started it, for :threads and error stacks: "startup", "loop scene steamhiss", … */
  origin: string;
  /** What the thread's first handler returned (the REPL echoes it). */
  result: Value;
  /** Why it failed: a script error's message, set when the VM stops it. */
  error: string | null;
  /** Frames of generated code the error passed through that keep no record on the thread (handler, pc pairs, innermost first). */
  errorFrames: number[] | null;
  /** Started for an event, with nobody holding it: once finished, the engine may use its object for a later thread. */
  reusable: boolean;
}

/** Positions per handler in Thread.site. */
export const SITE_SPAN = 2 ** 21;

/** A thread that will run handler hi from its start, its registers at base 0. */
export function newThread(id: number, origin: string, hi: number, stack: (Value | undefined)[]): Thread {
  // The hot fields first: those read and written on every wake share the object's first cache lines.
  return {
    hi,
    pc: 0,
    base: 0,
    dst: -1,
    frames: [],
    stack,
    wait: null,
    wakeAt: 0,
    sleepSeq: 0,
    resumeWith: -1,
    resumeDst: -1,
    backEdges: 0,
    since: 0,
    done: false,
    calls: 0,
    depth: 1,
    site: -1,
    slot: -1,
    id,
    origin,
    result: null,
    error: null,
    errorFrames: null,
    reusable: false,
  };
}

/**
 * A finished thread nobody else holds, made ready to run handler hi from its start as
 * newThread would make it (a delivered event starts a thread, and most run to their end
 * at once: the engine reuses their objects rather than making one per event).
 */
export function renewThread(th: Thread, id: number, origin: string, hi: number, stack: (Value | undefined)[]): Thread {
  th.hi = hi;
  th.pc = 0;
  th.base = 0;
  th.dst = -1;
  if (th.frames.length !== 0) th.frames.length = 0;
  th.stack = stack;
  th.wait = null;
  th.wakeAt = 0;
  th.sleepSeq = 0;
  th.resumeWith = -1;
  th.resumeDst = -1;
  th.backEdges = 0;
  th.since = 0;
  th.done = false;
  th.calls = 0;
  th.depth = 1;
  th.site = -1;
  th.slot = -1;
  th.id = id;
  th.origin = origin;
  th.result = null;
  th.error = null;
  th.errorFrames = null;
  th.reusable = false;
  return th;
}

/** Every frame, outermost first, FRAME_WORDS numbers each (for error stacks, snapshots and the REPL). */
export function frameList(th: Thread): number[] {
  return th.hi < 0 ? th.frames.slice() : [...th.frames, th.hi, th.pc, th.base, th.dst];
}

/** Frames on the thread, the innermost included. */
export function callDepth(th: Thread): number {
  return th.frames.length / FRAME_WORDS + (th.hi < 0 ? 0 : 1);
}

/** Calls handler hi: the innermost frame joins the callers, and hi's frame takes its place. */
export function pushFrame(th: Thread, hi: number, base: number, dst: number): void {
  th.frames.push(th.hi, th.pc, th.base, th.dst);
  th.hi = hi;
  th.pc = 0;
  th.base = base;
  th.dst = dst;
}

/** The innermost frame returned: its caller becomes the innermost again (or the thread has no frame left). */
export function popFrame(th: Thread): void {
  const f = th.frames;
  if (f.length === 0) {
    th.hi = -1;
    return;
  }
  // pop(), not a shorter length: setting length is a call into the runtime
  th.dst = f.pop()!;
  th.base = f.pop()!;
  th.pc = f.pop()!;
  th.hi = f.pop()!;
}
