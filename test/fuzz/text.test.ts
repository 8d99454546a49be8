// (a) parseFile, parseRepl and loadProgram on random bytes, unicode and token soups: only well-formed
// diagnostics come out, never an exception, never a hang.
// Size: FUZZ_RUNS (npm run fuzz), else the small default in config.ts.
import { describe, it, expect } from 'vitest';
import { runFuzzer, summary } from './harness.ts';
import { LONG, sizeFor, WATCHDOG_MS } from './config.ts';

const size = sizeFor('text');

describe('fuzz: random bytes and text into the parser and the loader', () => {
  it(`${size.runs} inputs or ${size.timeLimitMs / 1000} s, whichever comes first`, async () => {
    const r = await runFuzzer('text', size);
    console.log(summary('text', r));
    expect(r.failure, r.failure ?? '').toBeNull();
    expect(r.numRuns).toBeGreaterThan(0);
    // at the default size the whole count must fit in the time budget
    if (!LONG) expect(r.numRuns).toBe(size.runs);
  }, size.timeLimitMs + WATCHDOG_MS + 30_000);
});
