// Calls, described once: the one door into a handler, and the call protocol — what
// CALL, CALLB, SEND, RET and RETV do — as templates that every engine instantiates.
//
// The door. Every call path comes through here — a script call in either engine, an
// event run inside the calling thread (sendtoactor and friends), a thread's first
// handler — so the rules of a call are written once:
//   - call depth: at most MAX_CALL_DEPTH handlers deep, else a script error;
//   - the runaway guard counts the call, unless the handler making it is not counted
//     (noloopcheck, or the guard is off);
//   - a fresh call starts with its locals unassigned (reading one first is an error);
//   - missing arguments are void, extra ones are dropped.
// A handler compiled to a plain JavaScript function (it can never wait) keeps its
// locals in JavaScript variables, which start unassigned by themselves: a call into one
// is entered by enterDirect. Every other call gets a frame on the thread (enterFrame).
//
// The protocol. An engine says how its registers are named and where a frame lives
// (CallSite); the templates below say the rest: which registers go to the thread before
// it may be suspended, where the caller resumes, the door, a pause of the live host, a
// builtin that suspends the thread, where the result goes.
import type { HandlerCode } from './program.ts';
import { callDepth, FRAME_WORDS, pushFrame, popFrame, SITE_SPAN, type Thread } from './thread.ts';
import type { Value } from './value.ts';
import { callSpin, countCall } from './guard.ts';
import { MAX_CALL_DEPTH, tooDeep } from './ops.ts';

/**
 * The depth and the guard's count of a call; `counted`: the runaway guard counts the
 * handler making it; `sent`: an event sent to an object (sendtoactor and friends).
 */
export function enterHandler(th: Thread, counted: boolean, guard: number, sent = false): void {
  if (th.depth >= MAX_CALL_DEPTH) throw tooDeep(sent);
  if (counted) countCall(th, guard);
  th.depth++;
}

/** What a call without a frame on the thread keeps of its caller: the place of each call, by the caller's depth. */
export interface CallSites {
  readonly callSites: Int32Array;
}

/** A slot per depth a caller can be at. */
export function newCallSites(): Int32Array {
  return new Int32Array(MAX_CALL_DEPTH + 1);
}

/**
 * A call into a plain function (no frame on the thread) from the place `site` (handler
 * × SITE_SPAN + pc): the caller's place is kept by depth, for a warning's call stack.
 * (A call into one that can never reach a builtin, which is what warns, enters by
 * enterHandler: it has no place to keep.)
 */
export function enterDirect(vm: CallSites, th: Thread, site: number, counted: boolean, guard: number, sent = false): void {
  enterHandler(th, counted, guard, sent);
  vm.callSites[th.depth - 1] = site;
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

/**
 * The innermost frame on the thread returned v: its caller's result register gets it,
 * or, when it was the thread's first frame, the thread is done with v as its result.
 */
export function returnFrom(th: Thread, v: Value): void {
  const dst = th.dst;
  leaveFrame(th);
  if (th.hi >= 0) th.stack[dst] = v;
  else {
    th.done = true;
    th.result = v;
    // its registers let go (a shared empty list: truncating is a call into the runtime)
    th.stack = NO_REGISTERS;
  }
}

/** returnFrom, the innermost frame's loop count kept on the thread first (the code returning holds it in a variable). */
export function returnCounted(th: Thread, v: Value, backEdges: number): void {
  th.backEdges = backEdges;
  returnFrom(th, v);
}

/** The registers of every finished thread: none. Never written to. */
const NO_REGISTERS: (Value | undefined)[] = [];

/** A thread's first frame: its arguments, then unassigned locals (no caller to count). */
export function firstFrame(callee: HandlerCode, args: readonly Value[]): (Value | undefined)[] {
  // An array of exactly the size needed (pushing onto [] reserves 17 slots): with
  // thousands of threads, every thread's memory in fewer cache lines. Every slot is
  // written, so there are no holes for a snapshot to lose.
  const stack = new Array<Value | undefined>(callee.registers);
  for (let i = 0; i < callee.registers; i++) stack[i] = i < callee.params ? (i < args.length ? args[i] : null) : undefined;
  return stack;
}

/**
 * Where a thread making a builtin call stands: its frames as (handler, pc) pairs,
 * outermost first, a caller's pc past its call (as a frame keeps it), the innermost at
 * the builtin call (th.site). Frames on the thread keep their callers' places; the
 * calls made below the innermost of them, into plain functions, are in `callSites`.
 */
export function placesOfCall(vm: CallSites, th: Thread): number[] {
  const out: number[] = [];
  const f = th.frames;
  for (let i = 0; i < f.length; i += FRAME_WORDS) out.push(f[i], f[i + 1]);
  for (let d = callDepth(th); d < th.depth; d++) {
    const site = vm.callSites[d];
    out.push(Math.floor(site / SITE_SPAN), (site % SITE_SPAN) + 1);
  }
  out.push(Math.floor(th.site / SITE_SPAN), th.site % SITE_SPAN);
  return out;
}

// ---- the protocol, as templates -------------------------------------------------------

/**
 * What the call templates see of an engine at one call or return instruction. The
 * text they make runs where the engine defines `e` (the VM context), `th` (the thread),
 * `G` (the loop guard), `B` and `N` (the builtins and their context), `H` (the
 * handlers), `s` (the thread's stack, in engines whose frames live there) and the
 * modules OPS, DOOR, GUARD and SUSPEND.
 */
export interface CallSite {
  /** Register operand i, offset by `plus`: to read or to assign. */
  r(i: number, plus?: number): string;
  /** Operand i's number. */
  n(i: number): string;
  /** A statement recording this instruction as the place of whatever the next expression throws. */
  at(): string;
  /** Operand i's number when code is made for this one instruction; undefined where the engine reads it as it runs. */
  known(i: number): number | undefined;
  /** This instruction's place, handler × SITE_SPAN + pc, and where its frame resumes after it. */
  site(): string;
  next(): string;

  // ---- where the frame lives

  /** True when this handler's frame is on the thread (its registers in `s`); false in a plain function, its registers in variables. */
  readonly framed: boolean;
  /** Register operand i, offset by `plus` (a number or an expression), as an index into `s`. */
  slot(i: number, plus?: number | string): string;
  /** Statements writing to `s` the `count` (an operand) registers from register operand `first`, and with `live` every register live after this instruction: before the thread may be suspended here. */
  store(first: number, count: number, live: boolean): string;
  /** How a call of handler `hi` (its number, or an expression) is made from here: with a frame on the thread (true), as a call of its plain function (false), or as the expression says when it runs. */
  framedCall(hi: number | string): boolean | string;
  /** A call of handler hi's plain function with these arguments, as an expression. */
  direct(hi: number | string, args: string[]): string;
  /** Whether a direct call from here keeps this place for a warning's call stack: a handler it may run may call a builtin. */
  keepsPlace(): boolean;
  /** A statement handing the thread back to whoever runs it: its wait is set. */
  suspend(): string;
  /** A statement going on with the thread's innermost frame: the one a call pushed, or the caller a return went back to (if any). */
  resume(): string;
  /** This call site's memory of where its events went (an expression), or null: none. */
  sendCache(): string | null;

  // ---- the runaway guard and the builtins

  /** The variable holding the loop count while this code runs (th.backEdges outside it), or null. */
  readonly counter: string | null;
  /** Whether the runaway guard counts this handler's calls: 'true', 'false' or an expression. */
  counted(): string;
  /** Whether the live host may pause the thread at a call from here, into the callee's start. */
  readonly pausable: boolean;
  /** Whether builtin operand i may suspend the thread. */
  waits(i: number): boolean;
}

const saveCount = (g: CallSite): string => (g.counter === null ? '' : `th.backEdges = ${g.counter};`);
const loadCount = (g: CallSite): string => (g.counter === null ? '' : `${g.counter} = th.backEdges;`);

/** The spin count of a call the guard does not count (vm/guard.ts), as an expression; '' for one it counts. */
function spin(g: CallSite): string {
  const counted = g.counted();
  if (counted === 'true') return '';
  return counted === 'false' ? callSpin() : `!(${counted}) && ${callSpin()}`;
}

/**
 * A call of handler `hi` (its number, or an expression) with `given` arguments from
 * register operand 2 offset by `first`, its result to register operand 0: with a frame,
 * or directly.
 */
function callHandler(g: CallSite, hi: number | string, first: number | string, given: string, sent: boolean): string {
  const how = g.framedCall(hi);
  const tail = `${g.counted()}, G${sent ? ', true' : ''}`;
  const framed = (): string => {
    const counting = spin(g);
    const pausing = counting !== '' && g.pausable;
    const enter = `DOOR.enterFrame(th, ${hi}, H[${hi}], ${g.slot(2, first)}, ${g.slot(0)}, ${given}, ${tail});`;
    return [
      g.store(2, 3, true),
      `th.pc = ${g.next()};`,
      saveCount(g),
      pausing ? `const pausing = ${counting};` : counting === '' ? '' : `${counting};`,
      enter,
      pausing ? `if (pausing) { GUARD.pause(th); ${g.suspend()} }` : '',
      g.resume(),
    ].join(' ');
  };
  const direct = (): string => {
    const n = Number(given);
    if (typeof first !== 'number' || !Number.isInteger(n)) throw new Error('internal: a direct call needs its operands as the code is made');
    const args = Array.from({ length: n }, (_, j) => g.r(2, first + j));
    const counting = spin(g);
    return [
      saveCount(g),
      counting === '' ? '' : `${counting};`,
      g.keepsPlace() ? `DOOR.enterDirect(e, th, ${g.site()}, ${tail});` : `DOOR.enterHandler(th, ${tail});`,
      `${g.r(0)} = ${g.direct(hi, args)};`,
      'th.depth--;',
      loadCount(g),
    ].join(' ');
  };
  if (how === true) return framed();
  if (how === false) return direct();
  return `if (${how}) { ${framed()} } else { ${direct()} }`;
}

/** CALL: r[a] = handler h (r[c] … r[c+d-1]). */
export function callTemplate(g: CallSite): string {
  return `{ ${g.at()} ${callHandler(g, g.known(1) ?? g.n(1), 0, g.n(3), false)} }`;
}

/** CALLB: r[a] = builtin b (r[c] … r[c+d-1]); a builtin that waits may suspend the thread, to go on after the call with its result. */
export function callBuiltinTemplate(g: CallSite): string {
  const place = `${g.at()} th.site = ${g.site()};`;
  if (!g.framed) {
    // its registers are variables: the arguments go to the VM's scratch list
    const n = g.known(3)!;
    const fill = Array.from({ length: n }, (_, j) => `A[${j}] = ${g.r(2, j)};`).join(' ');
    return `{ ${place} const A = e.scratch; ${fill} ${g.r(0)} = B[${g.n(1)}].fn(N, th, A, 0, ${n}); }`;
  }
  const waits = g.waits(1);
  const call = `B[${g.n(1)}].fn(N, th, s, ${g.slot(2)}, ${g.n(3)})`;
  if (!waits) return `{ ${place} ${g.store(2, 3, false)} ${g.r(0)} = ${call}; }`;
  // a yield with no other thread ready (delay (0)) may go on at once, its registers where they are
  const suspend = `th.resumeDst = ${g.slot(0)}; ${saveCount(g)} ${g.suspend()}`;
  return `{ ${place} ${g.store(2, 3, true)} th.pc = ${g.next()}; const r = ${call}; if (r !== SUSPEND) ${g.r(0)} = r; else if (e.resumeInPlace(th)) ${g.r(0)} = null; else { ${suspend} } }`;
}

/** SEND: r[a] = the handler of an object for an event (see its entry in opcodes.ts), run with the rest of r[c] … r[c+d-1]. */
export function sendTemplate(g: CallSite): string {
  const kind = g.known(1);
  const count = g.known(3);
  const first = kind === undefined ? 'first' : kind === 0 ? 1 : 2;
  const given = typeof first === 'number' && count !== undefined ? String(count - first) : `${g.n(3)} - ${first}`;
  const event = count === undefined || count > 1 ? g.r(2, 1) : 'null';
  const cache = g.sendCache();
  const lookup = cache === null ? `OPS.sendUncached(e, ${g.n(1)}, ${g.r(2)}, ${event}, ${given})` : `OPS.sendCached(e, ${cache}, ${g.n(1)}, ${g.r(2)}, ${event}, ${given})`;
  const firstOf = kind === undefined ? `const first = ${g.n(1)} === 0 ? 1 : 2;` : '';
  return `{ ${g.at()} ${firstOf} const hi = ${lookup}; if (hi < 0) ${g.r(0)} = null; else { ${callHandler(g, 'hi', first, given, true)} } }`;
}

/** RET and RETV: return `value` (an expression) to the caller. */
export function returnTemplate(g: CallSite, value: string): string {
  if (!g.framed) return `{ const v = ${value}; ${saveCount(g)} return v; }`;
  const back = g.counter === null ? 'DOOR.returnFrom(th, v);' : `DOOR.returnCounted(th, v, ${g.counter});`;
  return `{ const v = ${value}; ${back} ${g.resume()} }`;
}
