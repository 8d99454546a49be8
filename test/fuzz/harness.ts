// Runs a fuzzer in a worker thread with a watchdog. Everything under test is
// synchronous, so an input that loops forever would block any timer in its own thread;
// from here the thread can be stopped and the input it was on reported.
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import type { FuzzerName } from './fuzzers.ts';
import type { WorkerJob, WorkerMessage } from './worker-main.ts';
import { FUZZ_SEED, LONG, SLOW_INPUT_MS, WATCHDOG_MS, sizeFor, type FuzzSize } from './config.ts';

/** What a fuzzer run reports: the worker's final message, or the harness's own when the worker hung or died. */
export type FuzzResult = Omit<Extract<WorkerMessage, { type: 'done' }>, 'type'>;

function runFuzzer(fuzzer: FuzzerName, size: FuzzSize): Promise<FuzzResult> {
  const job: WorkerJob = { fuzzer, runs: size.runs, timeLimitMs: size.timeLimitMs, slowMs: SLOW_INPUT_MS, seed: FUZZ_SEED };
  return new Promise((resolve, reject) => {
    // a runaway input should fail the fuzzer, not take the test process down with it
    const worker = new Worker(new URL('./worker.mjs', import.meta.url), { workerData: job, resourceLimits: { maxOldGenerationSizeMb: 1536 } });
    let current = '(before the first input)';
    let count = 0;
    let lastSign = Date.now();
    let settled = false;
    const finish = (f: () => void): void => {
      if (settled) return;
      settled = true;
      clearInterval(watchdog);
      void worker.terminate();
      f();
    };
    // the worker hung or died on the input it last announced
    const stopped = (longestMs: number, what: string): void =>
      finish(() =>
        resolve({
          numRuns: count,
          interrupted: true,
          seed: job.seed ?? -1,
          totalMs: 0,
          longestMs,
          longestInput: current,
          failure: `${fuzzer}: ${what}:\n--- input ---\n${current}`,
        }),
      );
    const watchdog = setInterval(() => {
      if (Date.now() - lastSign > WATCHDOG_MS) stopped(Date.now() - lastSign, `input ${count} did not return within ${WATCHDOG_MS} ms (a hang)`);
    }, 1000);
    worker.on('message', (m: WorkerMessage) => {
      lastSign = Date.now();
      if (m.type === 'start') {
        current = m.input;
        count++;
      } else {
        const { type: _done, ...result } = m;
        finish(() => resolve(result));
      }
    });
    worker.on('error', (err) => stopped(0, `the worker died (${err.message}) on input ${count}`));
    worker.on('exit', (code) => finish(() => reject(new Error(`${fuzzer}: the worker exited (${code}) without a result`))));
  });
}

/** One line of numbers for the test log. */
function summary(name: string, r: FuzzResult): string {
  return `[fuzz] ${name}: ${r.numRuns} inputs in ${(r.totalMs / 1000).toFixed(1)} s${r.interrupted ? ' (time limit reached)' : ''}, seed ${r.seed}, longest input ${Math.round(r.longestMs)} ms`;
}

/**
 * The test of one fuzzer (each in its own file, so vitest runs them side by side): no
 * failing input, and at the default size every input run within the time budget.
 */
export function fuzzTest(fuzzer: FuzzerName, title: string): void {
  const size = sizeFor(fuzzer);
  describe(title, () => {
    it(
      `${size.runs} inputs or ${size.timeLimitMs / 1000} s, whichever comes first`,
      async () => {
        const r = await runFuzzer(fuzzer, size);
        console.log(summary(fuzzer, r));
        expect(r.failure, r.failure ?? '').toBeNull();
        expect(r.numRuns).toBeGreaterThan(0);
        if (!LONG) expect(r.numRuns).toBe(size.runs);
      },
      size.timeLimitMs + WATCHDOG_MS + 30_000,
    );
  });
}
