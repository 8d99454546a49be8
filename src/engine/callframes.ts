// A thread's call frames, read from its plain data: the one reader of the frame words
// (vm/thread.ts) outside the machine and the snapshot writer. A caller's saved pc is
// its resume point, just past its call: the frame is shown at the call itself.
import type { Program } from '../vm/program.ts';
import { FRAME_WORDS, type Thread } from '../vm/thread.ts';

export interface CallFrame {
  handler: number;
  /** Where the frame resumes (the innermost: the instruction about to run, or just past the call it waits in). */
  pc: number;
  /** The instruction the frame stands at: the call it is in (a caller, or a thread parked in a builtin), else pc. */
  at: number;
  /** Absolute register of its register 0, and the one receiving its result (-1 for the first handler). */
  base: number;
  dst: number;
}

/** The instruction a saved pc stands in: a resume point is just past its call (every word of an instruction has its line and column). */
export function pastCall(pc: number): number {
  return pc > 0 ? pc - 1 : 0;
}

/** Whether the innermost frame waits in a call (a builtin that suspends it); a thread running, held by a debugger or paused mid-loop stands at its pc. */
function parkedInCall(th: Thread): boolean {
  const w = th.wait;
  return w !== null && w.kind !== 'debugger' && w.kind !== 'paused' && th.pc > 0;
}

/** Every frame of a thread, innermost first (none once it finished). */
export function callFrames(th: Thread): CallFrame[] {
  const out: CallFrame[] = [];
  if (th.hi >= 0) out.push({ handler: th.hi, pc: th.pc, at: parkedInCall(th) ? pastCall(th.pc) : th.pc, base: th.base, dst: th.dst });
  const f = th.frames;
  for (let fp = f.length - FRAME_WORDS; fp >= 0; fp -= FRAME_WORDS) out.push({ handler: f[fp], pc: f[fp + 1], at: pastCall(f[fp + 1]), base: f[fp + 2], dst: f[fp + 3] });
  return out;
}

/** The handlers on a thread's stack, outermost first. */
export function handlersOf(th: Thread): number[] {
  return callFrames(th)
    .map((f) => f.handler)
    .reverse();
}

/** The source line a frame stands at. */
export function frameLine(program: Program, f: CallFrame): number {
  const h = program.handlers[f.handler];
  return h ? (h.lines[f.at] ?? h.line) : 0;
}
