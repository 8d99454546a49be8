// Runs a fuzzer in a worker thread with a watchdog. Everything under test is
// synchronous, so an input that loops forever would block any timer in its own thread;
// from here the thread can be stopped and the input it was on reported.
import { Worker } from 'node:worker_threads';
import type { FuzzerName } from './fuzzers.ts';
import type { WorkerJob, WorkerMessage } from './worker-main.ts';
import { FUZZ_SEED, SLOW_INPUT_MS, WATCHDOG_MS, type FuzzSize } from './config.ts';

export interface FuzzResult {
  numRuns: number;
  interrupted: boolean;
  seed: number;
  totalMs: number;
  longestMs: number;
  longestInput: string;
  /** A report naming the failing input, or null. */
  failure: string | null;
}

export function runFuzzer(fuzzer: FuzzerName, size: FuzzSize): Promise<FuzzResult> {
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
    const watchdog = setInterval(() => {
      if (Date.now() - lastSign > WATCHDOG_MS) {
        finish(() =>
          resolve({
            numRuns: count,
            interrupted: true,
            seed: job.seed ?? -1,
            totalMs: 0,
            longestMs: Date.now() - lastSign,
            longestInput: current,
            failure: `${fuzzer}: input ${count} did not return within ${WATCHDOG_MS} ms (a hang):\n--- input ---\n${current}`,
          }),
        );
      }
    }, 1000);
    worker.on('message', (m: WorkerMessage) => {
      lastSign = Date.now();
      if (m.type === 'start') {
        current = m.input;
        count++;
      } else {
        finish(() => resolve({ numRuns: m.numRuns, interrupted: m.interrupted, seed: m.seed, totalMs: m.totalMs, longestMs: m.longestMs, longestInput: m.longestInput, failure: m.failure }));
      }
    });
    worker.on('error', (err) =>
      finish(() =>
        resolve({
          numRuns: count,
          interrupted: true,
          seed: job.seed ?? -1,
          totalMs: 0,
          longestMs: 0,
          longestInput: current,
          failure: `${fuzzer}: the worker died (${err.message}) on input ${count}:\n--- input ---\n${current}`,
        }),
      ),
    );
    worker.on('exit', (code) => finish(() => reject(new Error(`${fuzzer}: the worker exited (${code}) without a result`))));
  });
}

/** One line of numbers for the test log. */
export function summary(name: string, r: FuzzResult): string {
  return `[fuzz] ${name}: ${r.numRuns} inputs in ${(r.totalMs / 1000).toFixed(1)} s${r.interrupted ? ' (time limit reached)' : ''}, seed ${r.seed}, longest input ${Math.round(r.longestMs)} ms`;
}
