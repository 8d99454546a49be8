// What lets the interactive REPL answer whatever a script does. Script code (a line
// typed, a frame of the live world) runs inside a guard that can always be broken into:
// a SIGINT — Ctrl-C in the terminal, or `kill -INT` — stops it even while a script
// loops without ever yielding, and a watchdog thread breaks into code that has kept
// the REPL from answering for FREEZE_MS, so keys and signals (SIGTERM included) are
// never left waiting on a script.
import vm from 'node:vm';
import { Worker } from 'node:worker_threads';

/** How long script code may keep the REPL from answering before the watchdog breaks in. */
export const FREEZE_MS = 2000;

export type Outcome = 'done' | 'interrupted' | 'frozen';

// the guarded job is handed over through a global: code runs interruptibly only inside a vm script
const JOB = Symbol.for('pocketwatch.repl.guarded');
const RUN_JOB = new vm.Script('globalThis[Symbol.for("pocketwatch.repl.guarded")]()', { filename: 'pocketwatch-repl-guard' });

// shared with the watchdog: when the running job began (ms since `base`, 0: none), whether it broke in
const BUSY_SINCE = 0;
const BROKE_IN = 1;

const WATCHDOG = `
const { workerData } = require('node:worker_threads');
const { shared, base, freezeMs } = workerData;
setInterval(() => {
  const since = Atomics.load(shared, ${BUSY_SINCE});
  if (since !== 0 && Date.now() - base - since > freezeMs && Atomics.compareExchange(shared, ${BUSY_SINCE}, since, 0) === since) {
    Atomics.store(shared, ${BROKE_IN}, 1);
    process.kill(process.pid, 'SIGINT');
  }
}, 100);
`;

export class Interrupter {
  private readonly shared = new Int32Array(new SharedArrayBuffer(8));
  private readonly base = Date.now() - 1;
  private readonly watchdog: Worker;
  private depth = 0;

  constructor(freezeMs = FREEZE_MS) {
    this.watchdog = new Worker(WATCHDOG, { eval: true, workerData: { shared: this.shared, base: this.base, freezeMs } });
    // it never keeps the process alive, and its own troubles are no reason to stop the REPL
    this.watchdog.unref();
    this.watchdog.on('error', () => {});
  }

  /** Runs fn; 'interrupted' when a SIGINT broke in, 'frozen' when the watchdog did. */
  run(fn: () => void): Outcome {
    // a guarded job inside another is covered by the outer one
    if (this.depth > 0) {
      fn();
      return 'done';
    }
    const g = globalThis as unknown as Record<symbol, (() => void) | null>;
    g[JOB] = fn;
    this.depth++;
    Atomics.store(this.shared, BUSY_SINCE, Math.max(1, Date.now() - this.base));
    try {
      RUN_JOB.runInThisContext({ breakOnSigint: true });
      return 'done';
    } catch (err) {
      if ((err as NodeJS.ErrnoException)?.code !== 'ERR_SCRIPT_EXECUTION_INTERRUPTED') throw err;
      return Atomics.exchange(this.shared, BROKE_IN, 0) === 1 ? 'frozen' : 'interrupted';
    } finally {
      Atomics.store(this.shared, BUSY_SINCE, 0);
      this.depth--;
      g[JOB] = null;
    }
  }

  /** A SIGINT that reached the process's listeners: true when it is the watchdog's, come just too late to break in. */
  strayWatchdogSignal(): boolean {
    return Atomics.exchange(this.shared, BROKE_IN, 0) === 1;
  }

  close(): void {
    void this.watchdog.terminate();
  }
}
