// The builtin registry: every builtin is declared once with its name, parameters
// and an honest description. It feeds the signature table the compiler checks arity
// from (src/signatures/), the VM calls it by index, and the REPL's :help is generated from it.
import type { Value } from '../vm/value.ts';
import type { Thread } from '../vm/thread.ts';
import type { NativeFn, NativeResult } from '../vm/native.ts';
import type { BuiltinContext } from './context.ts';
import type { Signature } from '../signatures/table.ts';

export { arityOf, signature, type Arity } from '../signatures/table.ts';

export { SUSPEND } from '../vm/native.ts';
export type BuiltinResult = NativeResult;

/**
 * A builtin reads its arguments straight from the thread's register stack:
 * s[b] … s[b + n - 1]. It returns a value, or SUSPEND after setting a wait.
 */
export type BuiltinFn = NativeFn<BuiltinContext>;

export interface Builtin extends Signature {
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

const indexes = new WeakMap<readonly Builtin[], Map<string, number>>();

/** Where a builtin sits in a list by its name: one index per list, shared by every world that runs it. */
export function builtinIndexIn(builtins: readonly Builtin[], name: string): number | undefined {
  let index = indexes.get(builtins);
  if (index === undefined) {
    index = new Map();
    for (let i = 0; i < builtins.length; i++) index.set(builtins[i].name, i);
    indexes.set(builtins, index);
  }
  return index.get(name);
}
