// (f) Programs that spin where the runaway guard does not count (noloopcheck, or the
// guard off) beside threads ticking on the game clock, run live on a virtual wall
// clock: no frame lets more than its slice of spin through, the other threads tick,
// the results are those of a headless run on either engine, and a world saved with a
// thread paused restores live and headless. Size: FUZZ_RUNS (npm run fuzz), else the
// small default in config.ts.
import { fuzzTest } from './harness.ts';

fuzzTest('preempt', 'fuzz: spin the guard does not count, paused by the live host');
