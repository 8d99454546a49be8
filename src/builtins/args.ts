// Argument checks shared by builtins: each failure names the builtin, the argument
// and the value it got, as a script-level error.
import { ScriptError } from '../errors/diagnostic.ts';
import { describe, type Value } from '../vm/value.ts';

export function num(fn: string, v: Value, what: string): number {
  if (typeof v !== 'number' || v !== v) throw new ScriptError(`${fn} needs a number for ${what}, not ${describe(v)}`);
  return v;
}

/** A number a position, angle, length or count can take: an infinite one would turn the world's state to NaN. */
export function finite(fn: string, v: Value, what: string): number {
  const n = num(fn, v, what);
  if (!Number.isFinite(n)) throw new ScriptError(`${fn} needs a finite number for ${what}, not ${describe(v)}`);
  return n;
}

export function int(fn: string, v: Value, what: string): number {
  const n = num(fn, v, what);
  if (!Number.isInteger(n)) throw new ScriptError(`${fn} needs a whole number for ${what}, not ${describe(v)}`);
  return n;
}

/** The most frames or steps a countdown may take (about a year of heartbeats at 60 a second): what a snapshot holds too. */
export const COUNT_MAX = 2 ** 31;

/** A whole number of frames or steps, from `min` to COUNT_MAX. */
export function count(fn: string, v: Value, what: string, min: number): number {
  const n = int(fn, v, what);
  if (n < min || n > COUNT_MAX) throw new ScriptError(`${fn} needs ${min} to ${COUNT_MAX} for ${what}, not ${describe(v)}`);
  return n;
}

/** How far from the origin a place in the world may be: distances between two places stay exact enough and never overflow. */
export const PLACE_MAX = 1e15;

/** A coordinate of a place in the world (an actor, a star, the camera, a cricket). */
export function place(fn: string, v: Value, what: string): number {
  const n = finite(fn, v, what);
  if (n < -PLACE_MAX || n > PLACE_MAX) throw new ScriptError(`${fn} needs ${what} from -1e15 to 1e15 (a place in the world), not ${describe(v)}`);
  return n;
}

export function text(fn: string, v: Value, what: string): string {
  if (typeof v !== 'string') throw new ScriptError(`${fn} needs a string for ${what}, not ${describe(v)}`);
  return v;
}

export function name(fn: string, v: Value, what: string): string {
  return text(fn, v, what).toLowerCase();
}

export function list(fn: string, v: Value, what: string): Value[] {
  if (!Array.isArray(v)) throw new ScriptError(`${fn} needs a list for ${what}, not ${describe(v)}`);
  return v;
}

export function flag(v: Value): boolean {
  return !(v === false || v === 0 || v === '' || v === null);
}
