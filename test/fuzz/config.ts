// Fuzzing sizes. `npm test` runs every fuzzer at a small size; `npm run fuzz` sets
// FUZZ_RUNS to run each one much longer. Each fuzzer is bounded both in inputs and in
// wall time, so a slow machine cuts a run short instead of stalling the suite.

const env = Number(process.env.FUZZ_RUNS);
/** Inputs per fuzzer asked for on the command line, or 0 for the default (small) size. */
export const FUZZ_RUNS = Number.isFinite(env) && env > 0 ? Math.floor(env) : 0;
export const LONG = FUZZ_RUNS > 0;

export interface FuzzSize {
  /** Inputs to try. */
  runs: number;
  /** Wall-time budget for the whole fuzzer (fast-check stops starting new inputs after it). */
  timeLimitMs: number;
}

/**
 * In npm test the text fuzzer takes 10 000 inputs, the mutation fuzzer 7 000, the program
 * fuzzer, which runs two engines per input, 3 000 (about 15 s on 2 cores), the save and
 * size fuzzers 200 and 300, the snapshot fuzzer 300 and the preemption fuzzer 25 (a few
 * seconds each). In npm run fuzz, every fuzzer takes FUZZ_RUNS inputs, for up to an hour
 * each.
 */
export function sizeFor(fuzzer: 'text' | 'mutate' | 'programs' | 'saves' | 'sizes' | 'preempt' | 'snapshots'): FuzzSize {
  if (LONG) return { runs: FUZZ_RUNS, timeLimitMs: 60 * 60_000 };
  switch (fuzzer) {
    case 'text':
      return { runs: 10_000, timeLimitMs: 30_000 };
    case 'mutate':
      return { runs: 7_000, timeLimitMs: 60_000 };
    case 'programs':
      // ~5 ms an input (parse, compile, two engines)
      return { runs: 3_000, timeLimitMs: 150_000 };
    case 'saves':
      // three runs, a snapshot written and read back per input
      return { runs: 200, timeLimitMs: 60_000 };
    case 'sizes':
      return { runs: 300, timeLimitMs: 60_000 };
    case 'snapshots':
      // two restores, 2 s of the demo and 90 frames, two saves per input
      return { runs: 300, timeLimitMs: 45_000 };
    case 'preempt':
      // up to a few hundred thousand steps an input, headless on both engines, live, and restored twice
      return { runs: 25, timeLimitMs: 30_000 };
  }
}

/** One input taking longer than this is a failure: it would be a hang at a larger size. */
export const SLOW_INPUT_MS = LONG ? 10_000 : 5_000;
/** No sign of life from the fuzzing worker for this long: it hangs; stop it and report the input. */
export const WATCHDOG_MS = 60_000;
/** A fixed seed unless one is given (FUZZ_SEED), so npm test is reproducible. */
export const FUZZ_SEED = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : LONG ? undefined : 1729;
