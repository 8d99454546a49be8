// Input a game's host gives a world besides clicks and the mouse: keys, variables it
// sets and events it sends. Each waits in the mailbox for the next heartbeat, as a
// click does, so a run with the same input at the same times is the same run. Here:
// the mailbox entries, key names, and the values that cross between the host's
// JavaScript and a script.
import type { Value } from '../vm/value.ts';

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

function describe(v: unknown): string {
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v === undefined || v === null) return String(v);
  if (typeof v === 'bigint') return `a bigint (${String(v)}n)`;
  return Array.isArray(v) ? 'an array' : `a ${typeof v}`;
}

/** A key name as the world keeps it (lower case), or a sentence saying what is wrong with it. */
export function keyName(name: unknown): string | { problem: string } {
  if (typeof name !== 'string') return { problem: `a key name is a string such as "space" or "a", not ${describe(name)}` };
  const n = name.trim().toLowerCase();
  if (n === '' || n.length > MAX_KEY_NAME || /\s/.test(n)) return { problem: `a key name is one word of 1 to ${MAX_KEY_NAME} characters, such as "space" or "arrowup", not ${JSON.stringify(name)}` };
  return n;
}

export type { HostValue } from './hostdata.ts';
