// The three fuzzers: what they generate, what they check, and how an input is shown
// when it fails.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkLoad, checkRun, checkText, FUZZ_LIMITS } from './checks.ts';
import { randomText, mutatedInput, mutatedSources, CORPUS, type MutatedInput } from './text.ts';
import { program, printProgram, runSettings, type GenProgram, type RunSettings } from './programs.ts';
import { UNITS_PER_MS } from '../../src/time/units.ts';

export interface Fuzzer<T> {
  arbitrary: fc.Arbitrary<T>;
  check(input: T): void;
  /** The input as a person would want to see it in a report. */
  show(input: T): string;
}

/** (a) Random bytes and text into the parser (file and REPL) and the loader. */
const text: Fuzzer<[string, boolean]> = {
  // the boot library costs time on every load: most inputs are loaded alone
  arbitrary: fc.tuple(randomText, fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) })),
  check: ([source, withStdlib]) => checkText(source, withStdlib),
  show: ([source, withStdlib]) => `source ${JSON.stringify(source)}${withStdlib ? ' (with the boot library)' : ''}`,
};

/** (b) The repository's own scripts, mutated, into the loader; survivors run briefly on both engines. */
const mutate: Fuzzer<MutatedInput> = {
  arbitrary: mutatedInput,
  check: (input) => {
    const { program: p } = checkLoad(mutatedSources(input));
    if (p) checkRun(p, { fps: 60, until: 500 * UNITS_PER_MS, seed: 1, keepGoing: true, ...FUZZ_LIMITS });
  },
  show: (input) => {
    const srcs = mutatedSources(input);
    const file = CORPUS[input.entry].file;
    const mutated = srcs.find((s) => s.file === file)!;
    return `${file} mutated by ${JSON.stringify(input.mutations)}:\n${mutated.source}`;
  },
};

/** (c) Random valid programs, run headless under the guard and limits on both engines. */
const programs: Fuzzer<[GenProgram, RunSettings]> = {
  arbitrary: fc.tuple(program, runSettings),
  check: ([p, s]) => {
    const source = printProgram(p);
    const loaded = checkLoad([{ file: 'gen.pw', source }]);
    // the generator only writes valid programs: a compile error is a generator bug or a compiler bug
    assert.ok(loaded.program, `a generated program did not compile:\n${loaded.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`).join('\n')}`);
    checkRun(loaded.program, { fps: s.fps, until: s.untilMs * UNITS_PER_MS, seed: s.seed, keepGoing: s.keepGoing, ...FUZZ_LIMITS });
  },
  show: ([p, s]) => `settings ${JSON.stringify(s)} limits ${JSON.stringify(FUZZ_LIMITS)}\n${printProgram(p)}`,
};

export const FUZZERS = { text, mutate, programs } as const;
export type FuzzerName = keyof typeof FUZZERS;
