// (c) Random valid programs run headless under the loop guard, the call depth limit and
// small size limits: no exception escapes, no JavaScript stack, every run ends, and the
// interpreter and the generated code agree on stdout, stderr and trace.
// Size: FUZZ_RUNS (npm run fuzz), else the small default in config.ts.
import { fuzzTest } from './harness.ts';

fuzzTest('programs', 'fuzz: random valid programs run headless on both engines');
