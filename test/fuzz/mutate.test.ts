// (b) The scripts under test/, scripts/ and stdlib/, mutated token by token and character by
// character, into loadProgram: only well-formed diagnostics, never an exception, never
// a hang. A mutant that still compiles runs briefly on both engines.
// Size: FUZZ_RUNS (npm run fuzz), else the small default in config.ts.
import { fuzzTest } from './harness.ts';

fuzzTest('mutate', 'fuzz: mutated scripts from the repository into the loader');
