// Values crossing between a script and its host. The host sees plain data: numbers,
// strings, booleans, null for void, arrays for lists (copies: a script's list never
// leaks to the host, nor a host's array into a script). What a script cannot hold —
// a function, a symbol, a bigint, an object, NaN, an array that holds itself — is
// refused, naming it.
import { MAX_NESTING, MAX_STRING, type Value } from '../vm/value.ts';

export type HostValue = number | string | boolean | null | HostValue[];

/** A value the host gave that a script cannot hold; the message names it. */
export class HostValueError extends TypeError {}

export interface HostLimits {
  maxString: number;
  maxList: number;
}

/** A world's limits where no engine is at hand to ask (the host's input is checked before it reaches one). */
export const HOST_LIMITS: HostLimits = { maxString: MAX_STRING, maxList: 1_000_000 };

/** A script value as host data (lists copied); a list that holds itself cannot cross. */
export function toHost(v: Value, what: string): HostValue {
  return copyOut(v, what, new Set(), 0);
}

function copyOut(v: Value, what: string, open: Set<Value[]>, depth: number): HostValue {
  if (!Array.isArray(v)) return v;
  if (open.has(v)) throw new HostValueError(`${what} is a list that holds itself, which the host cannot take`);
  if (depth >= MAX_NESTING) throw new HostValueError(`${what} is a list nested more than ${MAX_NESTING} deep, which the host cannot take`);
  open.add(v);
  const out = v.map((x) => copyOut(x, what, open, depth + 1));
  open.delete(v);
  return out;
}

/**
 * Host data checked and copied (still host data: it goes into the mailbox and the
 * snapshot); `what` names it in the message ("the answer to request 3").
 * undefined and null are void.
 */
export function checkHostValue(v: unknown, what: string, limits: HostLimits): HostValue {
  return copyIn(v, what, limits, new Set(), 0);
}

function copyIn(v: unknown, what: string, limits: HostLimits, open: Set<unknown>, depth: number): HostValue {
  switch (typeof v) {
    case 'undefined':
      return null;
    case 'number':
      if (!Number.isFinite(v)) throw new HostValueError(`${what} is ${String(v)}, which a script cannot hold`);
      return v;
    case 'string':
      if (v.length > limits.maxString) throw new HostValueError(`${what} is a string of ${v.length} characters; a script holds at most ${limits.maxString}`);
      return v;
    case 'boolean':
      return v;
    case 'function':
      return refuse(what, `a function${v.name ? ` (${v.name})` : ''}`);
    case 'symbol':
      return refuse(what, `a symbol (${String(v.description ?? '')})`);
    case 'bigint':
      return refuse(what, `a bigint (${String(v)}n)`);
  }
  if (v === null) return null;
  if (!Array.isArray(v)) {
    const name = (v as object).constructor?.name;
    return refuse(what, `an object${name && name !== 'Object' ? ` (${name})` : ''}`);
  }
  if (open.has(v)) return refuse(what, 'an array that holds itself');
  if (depth >= MAX_NESTING) return refuse(what, `an array nested more than ${MAX_NESTING} deep`);
  if (v.length > limits.maxList) throw new HostValueError(`${what} is an array of ${v.length} items; a script list holds at most ${limits.maxList}`);
  open.add(v);
  const out: HostValue[] = [];
  for (let i = 0; i < v.length; i++) {
    // (a cycle is named at the array that closes it, not at the item that leads back)
    if (open.has(v[i])) return refuse(what, 'an array that holds itself');
    out.push(copyIn(v[i], `item ${i + 1} of ${what}`, limits, open, depth + 1));
  }
  open.delete(v);
  return out;
}

function refuse(what: string, thing: string): never {
  throw new HostValueError(`${what} is ${thing}, which a script cannot hold (it holds numbers, strings, booleans, lists as arrays, and void as null)`);
}

/** A variable's value for the host: as toHost, and undefined for one never assigned. */
export function fromScript(v: Value | undefined, what: string): HostValue | undefined {
  return v === undefined ? undefined : toHost(v, what);
}

/** Whether two pieces of host data are the same. */
export function sameData(a: HostValue | undefined, b: HostValue | undefined): boolean {
  if (a === b) return true;
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameData(a[i], b[i])) return false;
  return true;
}

/** Checked host data as a script value: arrays become fresh lists. */
export function toScript(v: HostValue): Value {
  return Array.isArray(v) ? v.map(toScript) : v;
}

/** Host data as a script would write it, for :threads and inspect (): "vlad", [1, 2]. */
export function hostText(v: HostValue, max = 40): string {
  const t = Array.isArray(v) ? `[${v.map((x) => hostText(x, max)).join(', ')}]` : v === null ? 'void' : typeof v === 'string' ? JSON.stringify(v.length > max ? v.slice(0, max) + '…' : v) : String(v);
  return t;
}

/** "say ("vlad", "…")": a host call as :threads and inspect () show it. */
export function hostCallText(builtin: string, args: readonly HostValue[]): string {
  return `${builtin} (${args.map((a) => hostText(a)).join(', ')})`;
}
