// (e) Strings and lists grown up to and past the size limits by every way a script can
// make a big value: no size above a limit is ever seen, passing one is a script error,
// and both engines agree. Size: FUZZ_RUNS (npm run fuzz), else the small default in config.ts.
import { fuzzTest } from './harness.ts';

fuzzTest('sizes', 'fuzz: strings and lists grown past the size limits');
