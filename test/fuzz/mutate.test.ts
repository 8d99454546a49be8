// (b) The scripts under test/, scripts/ and stdlib/, mutated token by token and character by
// character, into loadProgram: only well-formed diagnostics, never an exception, never
// a hang. A mutant that still compiles runs briefly on both engines.
// Size: FUZZ_RUNS (npm run fuzz), else the small default in config.ts.
import { describe, it, expect } from 'vitest';
import { runFuzzer, summary } from './harness.ts';
import { LONG, sizeFor, WATCHDOG_MS } from './config.ts';

const size = sizeFor('mutate');

describe('fuzz: mutated scripts from the repository into the loader', () => {
  it(`${size.runs} inputs or ${size.timeLimitMs / 1000} s, whichever comes first`, async () => {
    const r = await runFuzzer('mutate', size);
    console.log(summary('mutate', r));
    expect(r.failure, r.failure ?? '').toBeNull();
    expect(r.numRuns).toBeGreaterThan(0);
    // at the default size the whole count must fit in the time budget
    if (!LONG) expect(r.numRuns).toBe(size.runs);
  }, size.timeLimitMs + WATCHDOG_MS + 30_000);
});
