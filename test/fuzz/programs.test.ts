// (c) Random valid programs run headless under the loop guard, the call depth limit and
// small size limits: no exception escapes, no JavaScript stack, every run ends, and the
// interpreter and the generated code agree on stdout, stderr and trace.
// Size: FUZZ_RUNS (npm run fuzz), else the small default in config.ts.
import { describe, it, expect } from 'vitest';
import { runFuzzer, summary } from './harness.ts';
import { LONG, sizeFor, WATCHDOG_MS } from './config.ts';

const size = sizeFor('programs');

describe('fuzz: random valid programs run headless on both engines', () => {
  it(`${size.runs} inputs or ${size.timeLimitMs / 1000} s, whichever comes first`, async () => {
    const r = await runFuzzer('programs', size);
    console.log(summary('programs', r));
    expect(r.failure, r.failure ?? '').toBeNull();
    expect(r.numRuns).toBeGreaterThan(0);
    // at the default size the whole count must fit in the time budget
    if (!LONG) expect(r.numRuns).toBe(size.runs);
  }, size.timeLimitMs + WATCHDOG_MS + 30_000);
});
