// The builtin registry: every builtin is declared once with its name, parameters
// and an honest description. The compiler checks arity from it, the VM calls it by
// index, and the REPL's :help is generated from it.
import type { Value } from '../vm/value.ts';
import type { Thread } from '../vm/thread.ts';
import type { NativeFn, NativeResult } from '../vm/native.ts';
import type { BuiltinContext } from './context.ts';

export { SUSPEND } from '../vm/native.ts';
export type BuiltinResult = NativeResult;

/**
 * A builtin reads its arguments straight from the thread's register stack:
 * s[b] … s[b + n - 1]. It returns a value, or SUSPEND after setting a wait.
 */
export type BuiltinFn = NativeFn<BuiltinContext>;

export interface Builtin {
  name: string;
  /** Parameter names; a trailing `?` marks an optional one, `...` a rest. */
  params: string[];
  area: string;
  /** One line for :help's list and the reference's index: a whole sentence, never cut. */
  summary: string;
  doc: string;
  fn: BuiltinFn;
  /** For a suspending builtin: the value the call yields when its thread wakes. */
  resume?: (cx: BuiltinContext, th: Thread) => Value;
  /** What the thread waits for, for :threads (e.g. "a frame"). */
  waits?: string;
  /** For sendtoscene and friends: the kind of object the event goes to (compiled to the VM's SEND). */
  sends?: 'scene' | 'actor' | 'prop' | 'flat';
}

export interface Arity {
  min: number;
  max: number; // Infinity for a rest parameter
}

const arities = new WeakMap<Builtin, Arity>();

/** A builtin's arity, from its parameter list (worked out once per builtin). */
export function arityOf(b: Builtin): Arity {
  let a = arities.get(b);
  if (a === undefined) arities.set(b, (a = countArity(b)));
  return a;
}

function countArity(b: Builtin): Arity {
  let min = 0;
  let max = 0;
  for (const p of b.params) {
    if (p.startsWith('...')) return { min, max: Infinity };
    max++;
    if (!p.endsWith('?')) min = max;
  }
  return { min, max };
}

export function signature(b: Builtin): string {
  return `${b.name} (${b.params.join(', ')})`;
}
