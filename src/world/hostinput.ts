// Input a game's host gives a world besides clicks and the mouse: keys, variables it
// sets and events it sends. Each waits in the mailbox for the next heartbeat, as a
// click does, so a run with the same input at the same times is the same run. Here:
// the mailbox entries, key names, and the values that cross between the host's
// JavaScript and a script.
import { MAX_NESTING, MAX_STRING, type Value } from '../vm/value.ts';

/** A key going down or up. */
export interface KeyInput {
  at: number;
  kind: 'key';
  name: string;
  down: boolean;
}

/** A variable the host sets: a global (`object` "") or a property of "KIND NAME". */
export interface AssignInput {
  at: number;
  kind: 'assign';
  object: string;
  variable: string;
  value: Value;
}

/** An event the host sends to "KIND NAME", with its arguments. */
export interface SendInput {
  at: number;
  kind: 'send';
  objectKind: string;
  target: string;
  event: string;
  args: Value[];
}

export type HostInput = KeyInput | AssignInput | SendInput;

/** One key: held or not, and a press no keydown () poll has taken yet. */
export interface KeyState {
  down: boolean;
  /** Latched at the press, taken by the first poll after it: a press shorter than a frame is seen once. */
  pressed: boolean;
  /** The display frame at which a poll took the latched press (every poll of that frame sees it); -1 before. */
  seen: number;
}

/** Distinct key names a world keeps, and the longest name. */
export const MAX_KEYS = 512;
export const MAX_KEY_NAME = 40;

/** A key name as the world keeps it (lower case), or a sentence saying what is wrong with it. */
export function keyName(name: unknown): string | { problem: string } {
  if (typeof name !== 'string') return { problem: `a key name is a string such as "space" or "a", not ${describe(name)}` };
  const n = name.trim().toLowerCase();
  if (n === '' || n.length > MAX_KEY_NAME || /\s/.test(n)) return { problem: `a key name is one word of 1 to ${MAX_KEY_NAME} characters, such as "space" or "arrowup", not ${JSON.stringify(name)}` };
  return n;
}

// ---- values between the host and a script ----------------------------------------

/** A value the host hands over, or gets: JSON-like data. */
export type HostValue = number | string | boolean | null | HostValue[];

export class HostValueError extends TypeError {}

function describe(v: unknown): string {
  if (typeof v === 'function') return 'a function';
  if (typeof v === 'bigint') return `a bigint (${String(v)}n)`;
  if (typeof v === 'symbol') return 'a symbol';
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v);
  if (v === undefined) return 'undefined';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return 'an object';
}

const HOLDS = 'a script holds numbers, strings, true and false, void (null) and lists (arrays)';

/**
 * A host's value as a script value, copied: numbers (finite), strings, booleans,
 * null or undefined (void), arrays (lists). Anything else throws, naming `what`
 * (and the item, inside a list).
 */
export function toScript(v: unknown, what: string): Value {
  return convertIn(v, what, new Set(), 0);
}

function convertIn(v: unknown, what: string, path: Set<unknown>, depth: number): Value {
  switch (typeof v) {
    case 'number':
      if (!Number.isFinite(v)) throw new HostValueError(`${what} is ${String(v)}, which a script cannot hold (${HOLDS})`);
      return v;
    case 'string':
      if (v.length > MAX_STRING) throw new HostValueError(`${what} is a string of ${v.length} characters; a script holds at most ${MAX_STRING}`);
      return v;
    case 'boolean':
      return v;
    case 'undefined':
      return null;
  }
  if (v === null) return null;
  if (Array.isArray(v)) {
    if (path.has(v)) throw new HostValueError(`${what} is an array that holds itself (a cycle), which a script cannot hold`);
    if (depth >= MAX_NESTING) throw new HostValueError(`${what} nests arrays more than ${MAX_NESTING} deep`);
    path.add(v);
    const out: Value[] = [];
    for (let i = 0; i < v.length; i++) out.push(convertIn(v[i], `item ${i + 1} of ${what}`, path, depth + 1));
    path.delete(v);
    return out;
  }
  throw new HostValueError(`${what} is ${describe(v)}, which a script cannot hold (${HOLDS})`);
}

/**
 * A script value as host data: lists become fresh arrays, void null; a variable never
 * assigned is undefined. A list that holds itself throws, naming `what`.
 */
export function fromScript(v: Value | undefined, what: string): HostValue | undefined {
  if (v === undefined) return undefined;
  return convertOut(v, what, new Set());
}

function convertOut(v: Value, what: string, path: Set<Value[]>): HostValue {
  if (!Array.isArray(v)) return v;
  if (path.has(v)) throw new HostValueError(`${what} is a list that holds itself, which cannot be handed to the host`);
  if (path.size >= MAX_NESTING) throw new HostValueError(`${what} nests lists more than ${MAX_NESTING} deep`);
  path.add(v);
  const out = v.map((x) => convertOut(x, what, path));
  path.delete(v);
  return out;
}

/** Whether two pieces of host data are the same. */
export function sameData(a: HostValue | undefined, b: HostValue | undefined): boolean {
  if (a === b) return true;
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameData(a[i], b[i])) return false;
  return true;
}
