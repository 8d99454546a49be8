// Fuzzing sizes. `npm test` runs every fuzzer at a small, fixed size (a fixed count of
// inputs from a fixed seed: the same inputs on any machine, however loaded, so the
// result never depends on its speed); `npm run fuzz` sets FUZZ_RUNS to run each one
// much longer, bounded in wall time too.

const env = Number(process.env.FUZZ_RUNS);
/** Inputs per fuzzer asked for on the command line, or 0 for the default (small) size. */
export const FUZZ_RUNS = Number.isFinite(env) && env > 0 ? Math.floor(env) : 0;
export const LONG = FUZZ_RUNS > 0;

export interface FuzzSize {
  /** Inputs to try. */
  runs: number;
  /** Wall-time budget for the whole fuzzer (fast-check stops starting new inputs after it); in npm test only a backstop well past the time the inputs take. */
  timeLimitMs: number;
}

/**
 * In npm test the text fuzzer takes 1 000 inputs, the mutation fuzzer 700, the program
 * fuzzer, which runs two engines per input, 300, the save and size fuzzers 80 and 120, the
 * snapshot fuzzer 150, the preemption fuzzer 10 and the language-server fuzzer 300 (a few
 * seconds each on 2 quiet cores). In npm run fuzz, every fuzzer takes FUZZ_RUNS inputs (the
 * language server's at most 60 000), for up to an hour each.
 */
export function sizeFor(fuzzer: 'text' | 'mutate' | 'programs' | 'saves' | 'sizes' | 'preempt' | 'lsp' | 'snapshots'): FuzzSize {
  // (each input of the language-server fuzzer is a round trip to a server process: 60 000 of them is its long run)
  if (LONG) return { runs: fuzzer === 'lsp' ? Math.min(FUZZ_RUNS, 60_000) : FUZZ_RUNS, timeLimitMs: 60 * 60_000 };
  switch (fuzzer) {
    case 'text':
      return { runs: 1_000, timeLimitMs: BACKSTOP_MS };
    case 'mutate':
      return { runs: 700, timeLimitMs: BACKSTOP_MS };
    case 'programs':
      // ~5 ms an input (parse, compile, two engines)
      return { runs: 300, timeLimitMs: BACKSTOP_MS };
    case 'saves':
      // three runs, a snapshot written and read back per input
      return { runs: 80, timeLimitMs: BACKSTOP_MS };
    case 'sizes':
      return { runs: 120, timeLimitMs: BACKSTOP_MS };
    case 'lsp':
      // a few ms a round trip, on one long-lived server
      return { runs: 300, timeLimitMs: BACKSTOP_MS };
    case 'snapshots':
      // two restores, 2 s of the demo and 90 frames, two saves per input
      return { runs: 150, timeLimitMs: BACKSTOP_MS };
    case 'preempt':
      // up to a few hundred thousand steps an input, headless on both engines, live, and restored twice
      return { runs: 10, timeLimitMs: BACKSTOP_MS };
  }
}

/** In npm test, a fuzzer still running after this long has a hang in it (the watchdog and SLOW_INPUT_MS name the input). */
const BACKSTOP_MS = 10 * 60_000;

/** One input taking longer than this is a failure: it would be a hang at a larger size (in npm test, loose enough for a loaded machine). */
export const SLOW_INPUT_MS = LONG ? 10_000 : 30_000;
/** No sign of life from the fuzzing worker for this long: it hangs; stop it and report the input. */
export const WATCHDOG_MS = 60_000;
/** A fixed seed unless one is given (FUZZ_SEED), so npm test is reproducible. */
export const FUZZ_SEED = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : LONG ? undefined : 1729;
