// The one door into a handler. Every call path comes through here — a script call in
// either engine, an event run inside the calling thread (sendtoactor and friends), a
// thread's first handler — so the rules of a call are written once:
//   - call depth: at most MAX_CALL_DEPTH handlers deep, else a script error;
//   - the runaway guard counts the call, unless the caller opted out (noloopcheck);
//   - a fresh call starts with its locals unassigned (reading one first is an error);
//   - missing arguments are void, extra ones are dropped.
// A handler compiled to a plain JavaScript function (it can never wait) keeps its
// locals in JavaScript variables, which start unassigned by themselves; every other
// call gets a frame on the thread, entered by enterFrame.
import type { HandlerCode } from './program.ts';
import { pushFrame, popFrame, type Thread } from './thread.ts';
import type { Value } from './value.ts';
import { countCall } from './guard.ts';
import { MAX_CALL_DEPTH, tooDeep } from './ops.ts';

/**
 * The depth and the guard's count of a call; `counted`: the caller is not a noloopcheck
 * handler; `sent`: an event sent to an object (sendtoactor and friends).
 */
export function enterHandler(th: Thread, counted: boolean, guard: number, sent = false): void {
  if (th.depth >= MAX_CALL_DEPTH) throw tooDeep(sent);
  if (counted) countCall(th, guard);
  th.depth++;
}

/**
 * A call with a frame on the thread: callee `hi` runs with its registers from `base`,
 * its first `given` registers holding the arguments; its result goes to register `dst`
 * of the stack (-1: the thread's result).
 */
export function enterFrame(th: Thread, hi: number, callee: HandlerCode, base: number, dst: number, given: number, counted: boolean, guard: number, sent = false): void {
  enterHandler(th, counted, guard, sent);
  pushFrame(th, hi, base, dst);
  const s = th.stack;
  for (let i = given; i < callee.params; i++) s[base + i] = null;
  for (let i = callee.params, end = base + callee.registers; base + i < end; i++) s[base + i] = undefined;
}

/** The innermost frame returned. */
export function leaveFrame(th: Thread): void {
  th.depth--;
  popFrame(th);
}

/** A thread's first frame: its arguments, then unassigned locals (no caller to count). */
export function firstFrame(callee: HandlerCode, args: readonly Value[]): (Value | undefined)[] {
  // An array of exactly the size needed (pushing onto [] reserves 17 slots): with
  // thousands of threads, every thread's memory in fewer cache lines. Every slot is
  // written, so there are no holes for a snapshot to lose.
  const stack = new Array<Value | undefined>(callee.registers);
  for (let i = 0; i < callee.registers; i++) stack[i] = i < callee.params ? (i < args.length ? args[i] : null) : undefined;
  return stack;
}
