// What the VM calls outside itself. A native function (a builtin) reads its arguments
// straight from the thread's registers, s[b] … s[b + n - 1], and returns a value or a
// signal: SUSPEND after it parked the thread (it set thread.wait). The VM knows nothing
// of what a builtin does; the context it hands them is opaque to it.
import type { Thread } from './thread.ts';
import type { Value } from './value.ts';

export const SUSPEND: unique symbol = Symbol('suspend');

export type NativeResult = Value | typeof SUSPEND;

// biome-ignore lint/suspicious/noExplicitAny: each caller names its own context
export type NativeFn<C = any> = (cx: C, th: Thread, s: Value[], b: number, n: number) => NativeResult;

export interface Native<C = unknown> {
  name: string;
  fn: NativeFn<C>;
  /** Set for a builtin that may suspend its caller: what it waits for. */
  waits?: string;
}
