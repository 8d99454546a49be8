// (a) parseFile, parseRepl and loadProgram on random bytes, unicode and token soups: only well-formed
// diagnostics come out, never an exception, never a hang.
// Size: FUZZ_RUNS (npm run fuzz), else the small default in config.ts.
import { fuzzTest } from './harness.ts';

fuzzTest('text', 'fuzz: random bytes and text into the parser and the loader');
