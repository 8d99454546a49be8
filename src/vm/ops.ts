// The slow paths of the instructions and every runtime error message the VM gives, in
// one module that both engines call: the interpreter loop and the generated code take
// the fast path inline (see opcodes.ts) and come here for everything else.
import { ScriptError } from '../errors/diagnostic.ts';
import { describe, equals, formatNumber, str, truthy, type Value } from './value.ts';
import type { Program } from './program.ts';
import type { Thread } from './thread.ts';
import { worked, type Worker } from './guard.ts';

export { equals, truthy };

/** `=` of two values, the first a list: the items compared count as work (vm/guard.ts). */
export function same(vm: Worker, a: Value, b: Value): boolean {
  const walked = { items: 0 };
  const r = equals(a, b, walked);
  worked(vm, walked.items);
  return r;
}

/** Handler frames one thread may hold. */
export const MAX_CALL_DEPTH = 200;

export function arith(verb: string, op: string, a: Value, b: Value): ScriptError {
  const join = op === '+' && (typeof a === 'string' || typeof b === 'string') ? '; use ".." to join text' : '';
  return new ScriptError(`cannot ${verb} ${describe(a)} and ${describe(b)}: "${op}" needs two numbers${join}`);
}

export function divFailure(a: Value, b: Value): ScriptError {
  if (typeof a !== 'number' || typeof b !== 'number') return arith('divide', '/', a, b);
  return new ScriptError(`division by zero: ${formatNumber(a)} / 0`);
}

/** `mod` is floored: the result takes the sign of the divisor, so (-1) mod 3 = 2. */
export function mod(a: Value, b: Value): number {
  if (typeof a !== 'number' || typeof b !== 'number') throw arith('take the remainder of', 'mod', a, b);
  if (b === 0) throw new ScriptError(`division by zero: ${formatNumber(a)} mod 0`);
  let r = a % b;
  if (r !== 0 && r < 0 !== b < 0) r += b;
  return r;
}

export function negFailure(a: Value): ScriptError {
  return new ScriptError(`cannot negate ${describe(a)}: "-" needs a number`);
}

export function catText(v: Value, other: Value): string {
  if (typeof v === 'string') return v;
  // String () writes numbers as print does (-0 as 0 included)
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return str(v);
  throw new ScriptError(`cannot join ${describe(v)} with ".." (to ${describe(other)}): ".." joins strings, numbers and booleans`);
}

/** `<`, `<=`, `>`, `>=` on two numbers or two strings; the error names the operands as written. */
export function compare(a: Value, b: Value, op: '<' | '<=' | '>' | '>='): boolean {
  if ((typeof a === 'number' && typeof b === 'number') || (typeof a === 'string' && typeof b === 'string')) {
    return op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b;
  }
  throw new ScriptError(`cannot compare ${describe(a)} and ${describe(b)} with "${op}": both must be numbers or both strings`);
}

export function checkIndex(list: Value[] | string, i: Value, what: string): number {
  if (typeof i !== 'number' || !Number.isInteger(i)) throw new ScriptError(`cannot ${what} item ${describe(i)}: an index is a whole number`);
  if (i < 1 || i > list.length) {
    const kind = typeof list === 'string' ? 'string' : 'list';
    throw new ScriptError(`index ${formatNumber(i)} is out of range: the ${kind} has ${list.length} item${list.length === 1 ? '' : 's'} (indices start at 1)`);
  }
  return i - 1;
}

export function indexValue(t: Value, i: Value): Value {
  if (Array.isArray(t)) return t[checkIndex(t, i, 'get')];
  if (typeof t === 'string') return t[checkIndex(t, i, 'get')];
  throw new ScriptError(`cannot index ${describe(t)}: only lists and strings have items`);
}

export function setIndex(list: Value, i: Value, v: Value): void {
  if (!Array.isArray(list)) throw new ScriptError(`cannot set an item of ${describe(list)}: only lists have items to set`);
  list[checkIndex(list, i, 'set')] = v;
}

/** A for loop's bounds and step, checked once: whether it runs at all. */
export function forPrep(from: Value, to: Value, step: Value): boolean {
  if (typeof from !== 'number') throw new ScriptError(`a for loop needs a number to start from, not ${describe(from)}`);
  if (typeof to !== 'number') throw new ScriptError(`a for loop needs a number to count to, not ${describe(to)}`);
  if (typeof step !== 'number') throw new ScriptError(`a for loop needs a number as its step, not ${describe(step)}`);
  if (step === 0 || step !== step) throw new ScriptError('a for loop cannot have a step of 0');
  return step > 0 ? from <= to : from >= to;
}

export function unassigned(name: Value): ScriptError {
  return new ScriptError(`"${String(name)}" is read before it is assigned`);
}

export function unassignedGlobal(p: Program, g: number): ScriptError {
  return new ScriptError(`global "${p.globals[g]}" is read before it is assigned`);
}

export function unassignedProperty(p: Program, object: number, prop: number): ScriptError {
  return new ScriptError(`property "${p.objects[object].properties[prop]}" is read before it is assigned`);
}

export function tooDeep(sent: boolean): ScriptError {
  const why = sent ? 'are two objects sending events to each other without end?' : 'is a handler calling itself without end?';
  return new ScriptError(`call depth over ${MAX_CALL_DEPTH}: ${why}`);
}

/** A list literal: registers first … first + n - 1 of the stack. */
export function listOf(s: readonly (Value | undefined)[], first: number, n: number): Value[] {
  const list: Value[] = new Array(n);
  for (let i = 0; i < n; i++) list[i] = s[first + i] as Value;
  return list;
}

/** What sending an event needs of the VM's context: the handler it goes to (validated and traced), or -1. */
interface Sends {
  sendTarget(kind: number, nameOrEvent: Value, event: Value): number;
  readonly tracing: boolean;
  readonly state: { readonly set: string };
  readonly program: Program;
}

const SENDERS = ['sendtoscene', 'sendtoactor', 'sendtoprop', 'sendtoflat'];

/** A sent event's handler takes fewer parameters than the arguments sent: a script error naming its signature. */
export function checkSent(program: Program, h: number, kind: number, given: number): void {
  const hc = program.handlers[h];
  if (given <= hc.params) return;
  const o = hc.object >= 0 ? program.objects[hc.object] : null;
  const takes = hc.params === 0 ? 'no arguments' : hc.params === 1 ? '1 argument' : `${hc.params} arguments`;
  throw new ScriptError(`${SENDERS[kind]}: ${o ? `${o.kind} ${o.name}'s ` : ''}on ${hc.spelled} (${hc.localNames.slice(0, hc.params).join(', ')}) takes ${takes}, not ${given}`);
}

/** One call site's memory of where its last event went: most sites send the same event to the same object every time. */
export interface SendCache {
  a: Value | undefined;
  b: Value | undefined;
  h: number;
}

/** The handler an event goes to (or -1), checked against the `given` arguments sent. */
export function sendUncached(vm: Sends, kind: number, a: Value, b: Value, given: number): number {
  const h = vm.sendTarget(kind, a, b);
  if (h >= 0) checkSent(vm.program, h, kind, given);
  return h;
}

/** sendUncached through a call site's cache (a scene's target also depends on the current set; a traced run asks every time, to trace it). */
export function sendCached(vm: Sends, c: SendCache, kind: number, a: Value, b: Value, given: number): number {
  const key = kind === 0 ? vm.state.set : b;
  if (a === c.a && key === c.b && !vm.tracing) return c.h;
  // (a site sends the same number of arguments every time: checked once per target)
  const h = sendUncached(vm, kind, a, b, given);
  c.a = a;
  c.b = key;
  c.h = h;
  return h;
}

/** What the memory guard needs of the VM's context. */
interface Grows {
  readonly options: { readonly maxString: number };
  grew(bytes: number): void;
}

/** Results of `..` up to this length are not counted against the limits. */
export const CAT_COUNTED = 4096;

/** `..`: long results are where memory goes; they count against the limits. */
export function cat(vm: Grows, a: Value, b: Value): string {
  const r = catText(a, b) + catText(b, a);
  if (r.length > CAT_COUNTED) grewBy(vm, r, a, b);
  return r;
}

/** r = a .. b is longer than CAT_COUNTED: it counts against the string limit and the memory guard. */
export function grewBy(vm: Grows, r: string, a: Value, b: Value): void {
  if (r.length > vm.options.maxString) throw new ScriptError(`string too long: ${r.length} characters (the limit is ${vm.options.maxString})`);
  // what is new is the shorter side: the longer one is shared with the result
  vm.grew(Math.min(typeof a === 'string' ? a.length : 0, typeof b === 'string' ? b.length : 0) * 2 + 32);
}

/**
 * An error on its way out of a frame of generated code that keeps no frame record:
 * each such frame adds its handler and position (innermost first), so the script call
 * stack can be told in full. A caller's position is given past its call instruction,
 * as a resume point is for a frame on the thread.
 */
export function unwound(err: unknown, hi: number, pc: number): unknown {
  const e = (err !== null && typeof err === 'object' ? err : new Error(String(err))) as { pwFrames?: number[] };
  if (e.pwFrames === undefined) e.pwFrames = [hi, pc];
  else e.pwFrames.push(hi, pc + 1);
  return e;
}

/** An error leaving a thread's first handler that ran as a plain function (see unwound). */
export function entryUnwound(err: unknown): unknown {
  if (err !== null && typeof err === 'object') (err as { pwEntry?: boolean }).pwEntry = true;
  return err;
}

/** Whatever went wrong in a thread stops that thread only, said in the script's terms (th.error). */
export function threadFailedWith(th: Thread, err: unknown): 'failed' {
  if (err instanceof ScriptError) th.error = err.message;
  // an array or string grew past what the host allows: still the script's doing (any
  // other RangeError is a fault of Pocketwatch's own, and said to be one)
  else if (err instanceof RangeError && /invalid (string|array) length|allocation failed/i.test(err.message)) th.error = `out of memory for script values (${err.message})`;
  // a fault inside Pocketwatch itself: stop this thread, keep the world (and the host) alive
  else th.error = `internal error in Pocketwatch (not your script): ${(err as Error)?.message ?? String(err)}`;
  const e = err as { pwFrames?: number[]; pwEntry?: boolean } | null;
  th.errorFrames = e?.pwFrames ?? null;
  // a thread whose first handler ran as a plain function: that function's own record stands for its frame
  if (e?.pwEntry === true) {
    th.frames.length = 0;
    th.hi = -1;
  }
  th.done = true;
  return 'failed';
}
