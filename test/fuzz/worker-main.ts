// Runs one fuzzer inside a worker thread. Before each input it tells the parent what
// the input is, so that if the input never returns (a hang no in-thread timer can
// interrupt) the parent can stop the thread and still name the input.
import { parentPort, workerData } from 'node:worker_threads';
import fc from 'fast-check';
import { FUZZERS, type Fuzzer, type FuzzerName } from './fuzzers.ts';

export interface WorkerJob {
  fuzzer: FuzzerName;
  runs: number;
  timeLimitMs: number;
  slowMs: number;
  seed?: number;
}

export type WorkerMessage =
  | { type: 'start'; input: string }
  | {
      type: 'done';
      numRuns: number;
      interrupted: boolean;
      seed: number;
      totalMs: number;
      longestMs: number;
      longestInput: string;
      failure: string | null;
    };

const job = workerData as WorkerJob;
const fuzzer = FUZZERS[job.fuzzer] as unknown as Fuzzer<unknown, unknown>;
const post = (m: WorkerMessage): void => parentPort!.postMessage(m);

let longestMs = 0;
let longestInput = '';
const started = performance.now();
const details = fc.check(
  fc.property(fuzzer.arbitrary, (input) => {
    const prepared = fuzzer.prepare(input);
    const shown = fuzzer.show(prepared);
    post({ type: 'start', input: shown });
    const t0 = performance.now();
    fuzzer.check(prepared);
    const ms = performance.now() - t0;
    if (ms > longestMs) {
      longestMs = ms;
      longestInput = shown;
    }
    // far slower than its peers: at a larger size it would be a hang
    if (ms > job.slowMs) throw new Error(`one input took ${Math.round(ms)} ms (the limit is ${job.slowMs} ms)`);
  }),
  { numRuns: job.runs, seed: job.seed, interruptAfterTimeLimit: job.timeLimitMs, markInterruptAsFailure: false },
);

let failure: string | null = null;
if (details.failed) {
  const err = details.errorInstance as Error | undefined;
  const input = details.counterexample ? fuzzer.show(fuzzer.prepare(details.counterexample[0])) : '(no counterexample)';
  failure =
    `${job.fuzzer}: failed after ${details.numRuns} inputs (seed ${details.seed}, path "${details.counterexamplePath}", ${details.numShrinks} shrinks)\n` +
    `${err?.message ?? String(details.errorInstance)}\n--- input ---\n${input}`;
}
post({
  type: 'done',
  numRuns: details.numRuns,
  interrupted: details.interrupted,
  seed: details.seed,
  totalMs: performance.now() - started,
  longestMs,
  longestInput: longestInput.length > 4000 ? longestInput.slice(0, 4000) + '…' : longestInput,
  failure,
});
