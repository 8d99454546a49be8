// Property tests are reproducible in npm test: fast-check starts every property from a
// fixed seed (FC_SEED picks another). npm run fuzz (FUZZ_RUNS set) leaves them random.
import fc from 'fast-check';

if (process.env.FUZZ_RUNS === undefined) fc.configureGlobal({ seed: Number(process.env.FC_SEED ?? 1729) });
