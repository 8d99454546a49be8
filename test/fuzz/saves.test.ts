// (d) Random valid programs saved at a random moment of their run and restored into the
// other engine go on exactly like the run never saved (stdout, errors and trace).
// Size: FUZZ_RUNS (npm run fuzz), else the small default in config.ts.
import { fuzzTest } from './harness.ts';

fuzzTest('saves', 'fuzz: random valid programs saved and restored mid-run');
