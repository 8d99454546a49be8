// What lets the interactive REPL answer whatever a script does. The live host gives a
// thread only its slice of each frame (vm/guard.ts), so script code hands control back
// within a frame, and a SIGINT — Ctrl-C in the terminal, or `kill -INT` — is answered
// between two frames. Script code (a line typed, a frame of the live world) still runs
// inside a guard: code that keeps the REPL from answering for FREEZE_MS (something the
// slices cannot pause) is broken into, so keys and signals (SIGTERM included) are never
// left waiting on a script.
//
// The guard is vm's `timeout`, not its `breakOnSigint`: that one takes the process's
// SIGINT listeners away for each run and, when the run ends, leaves a handler that ends
// the process until it puts them back, so a SIGINT landing between two frames could end
// the REPL (docs/testing.md).
import vm from 'node:vm';

/** How long script code may keep the REPL from answering before the guard breaks in. */
export const FREEZE_MS = 2000;

export type Outcome = 'done' | 'frozen';

// the guarded job is handed over through a global: code runs under a timeout only inside a vm script
const JOB = Symbol.for('pocketwatch.repl.guarded');
const RUN_JOB = new vm.Script('globalThis[Symbol.for("pocketwatch.repl.guarded")]()', { filename: 'pocketwatch-repl-guard' });

export class Interrupter {
  private depth = 0;

  constructor(private readonly freezeMs = FREEZE_MS) {}

  /** Runs fn; 'frozen' when it was broken into after freezeMs. */
  run(fn: () => void): Outcome {
    // a guarded job inside another is covered by the outer one
    if (this.depth > 0) {
      fn();
      return 'done';
    }
    const g = globalThis as unknown as Record<symbol, (() => void) | null>;
    g[JOB] = fn;
    this.depth++;
    try {
      RUN_JOB.runInThisContext({ timeout: this.freezeMs });
      return 'done';
    } catch (err) {
      if ((err as NodeJS.ErrnoException)?.code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw err;
      return 'frozen';
    } finally {
      this.depth--;
      g[JOB] = null;
    }
  }
}
