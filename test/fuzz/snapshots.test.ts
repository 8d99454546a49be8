// (g) The demo's snapshots, mutated as a player with a text editor could, restored
// through pw run's reader and through World.restore: refused alike with a SnapshotError,
// or accepted alike as a world that takes frames and saves again.
// Size: FUZZ_RUNS (npm run fuzz), else the small default in config.ts.
import { fuzzTest } from './harness.ts';

fuzzTest('snapshots', 'fuzz: mutated snapshots restored by pw run and by the library');
