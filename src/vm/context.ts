// What the VM needs from whoever runs it: the program, the variables, the natives and
// the limits. The engine provides it; the VM never reaches up to the engine itself.
import type { Program, HandlerCode } from './program.ts';
import type { Thread } from './thread.ts';
import type { Value } from './value.ts';
import type { Native } from './native.ts';
import type { Spinner, Worker } from './guard.ts';
import type { CallSites } from './call.ts';

/** Called before every instruction when the VM is traced (pw run --trace-vm). */
export type VmTrace = (th: Thread, h: HandlerCode, pc: number) => void;

/**
 * A debugger holding the interpreter (pw dap). Only the debugged variant of the loop
 * calls it, so a run without one pays nothing.
 */
export interface VmDebugger {
  /** Before the instruction at pc of th's innermost frame (handler h): true stops th there. */
  at(th: Thread, h: HandlerCode, pc: number): boolean;
  /** th is stopped before that instruction (its wait is "debugger"); it goes on from there once this returns. */
  stopped(th: Thread): void;
  /** th stops at a script error (th.error) once this returns: the last moment to look at it. */
  failing(th: Thread): void;
}

export interface VmOptions {
  /** Loop iterations allowed between real frames; 0 disables the guard. */
  loopGuard: number;
  maxString: number;
  /** Run handlers as generated JavaScript (false: the bytecode interpreter). */
  jit: boolean;
}

/**
 * (Spinner, Worker: the budgets of code the runaway guard does not count and of builtin
 * work, vm/guard.ts; CallSites: the callers' places of calls without a frame, call.ts.)
 */
export interface VmContext extends Spinner, Worker, CallSites {
  readonly program: Program;
  globals: (Value | undefined)[];
  props: (Value | undefined)[][];
  // biome-ignore lint/suspicious/noExplicitAny: the VM hands natives a context it does not know
  readonly builtins: readonly Native<any>[];
  /** Handed to every native as its first argument. */
  readonly nativeContext: unknown;
  readonly options: VmOptions;
  traceVm: VmTrace | null;
  /** The debugger holding the interpreter, if any (generated code never has one). */
  debugVm?: VmDebugger | null;
  /** The VM's own slot: the generated code of the current program. */
  code: unknown;
  /** Arguments of a builtin called from generated code that keeps its registers in variables. */
  readonly scratch: Value[];
  /** The handler an event sent to an object goes to (checked, traced as delivered or ignored), or -1: kind is SEND's (0 scene …). */
  sendTarget(kind: number, nameOrEvent: Value, event: Value): number;
  readonly tracing: boolean;
  readonly state: { readonly set: string };
  /**
   * th has just suspended itself without waiting for anything (delay (0)): true when it
   * goes on at once, as the scheduler would run it next anyway (its wait is cleared).
   */
  resumeInPlace(th: Thread): boolean;
  /** Counts script values that grew by about `bytes` (the memory guard); may throw a ScriptError. */
  grew(bytes: number): void;
}
