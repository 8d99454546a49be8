// Running a thread: the generated code normally, the bytecode interpreter when asked
// (jit off). Both keep the same frames and give the same results.
import type { VmContext } from './context.ts';
import type { Thread } from './thread.ts';
import { execute, type RunOutcome } from './interpreter.ts';
import { executeCompiled } from './jit.ts';

export type { RunOutcome };

/** Runs th until it suspends, finishes (th.result) or fails (th.error). */
export function runThread(vm: VmContext, th: Thread): RunOutcome {
  return vm.options.jit ? executeCompiled(vm, th) : execute(vm, th);
}
