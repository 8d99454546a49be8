// The three fuzzers: what they generate, what they check, and how an input is shown
// when it fails.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkLoad, checkPreempt, checkRun, checkSaveRestore, checkText, FUZZ_LIMITS, type LiveSettings } from './checks.ts';
import { randomText, mutatedInput, mutatedSources, CORPUS, type MutatedInput } from './text.ts';
import { program, printProgram, runSettings, type GenProgram, type RunSettings } from './programs.ts';
import { spinProgram, printSpin, type SpinProgram } from './spin.ts';
import { growthProgram, printGrowth, LIMIT_ERROR, type GrowthProgram } from './growth.ts';
import { checkSnapshot, showSnapshotInput, snapshotInput, type SnapshotInput } from './snapshots.ts';
import type { SourceText } from '../../src/node/load.ts';
import { UNITS_PER_MS } from '../../src/time/units.ts';

export interface Fuzzer<T, P> {
  arbitrary: fc.Arbitrary<T>;
  /** Turns a generated value into what is checked (source text), once per input. */
  prepare(input: T): P;
  check(prepared: P): void;
  /** The input as a person would want to see it in a report. */
  show(prepared: P): string;
}

/** (a) Random bytes and text into the parser (file and REPL) and the loader. */
const text: Fuzzer<[string, boolean], [string, boolean]> = {
  // the boot library costs time on every load: most inputs are loaded alone
  arbitrary: fc.tuple(randomText, fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) })),
  prepare: (input) => input,
  check: ([source, withStdlib]) => checkText(source, withStdlib),
  show: ([source, withStdlib]) => `source ${JSON.stringify(source)}${withStdlib ? ' (with the boot library)' : ''}`,
};

/** (b) The repository's own scripts, mutated, into the loader; survivors run briefly on both engines. */
const mutate: Fuzzer<MutatedInput, { input: MutatedInput; sources: SourceText[] }> = {
  arbitrary: mutatedInput,
  prepare: (input) => ({ input, sources: mutatedSources(input) }),
  check: ({ sources }) => {
    const { program: p } = checkLoad(sources);
    // a noloopcheck handler is out of the guard's reach by request: a mutant of one may
    // loop for ever (i = 0 + 1), which is what the author asked for, so it is only compiled
    if (p && !sources.some((s) => /noloopcheck/i.test(s.source))) {
      checkRun(p, { fps: 60, until: 500 * UNITS_PER_MS, seed: 1, keepGoing: true, ...FUZZ_LIMITS });
    }
  },
  show: ({ input, sources }) => {
    const file = CORPUS[input.entry].file;
    const mutated = sources.find((s) => s.file === file)!;
    return `${file} mutated by ${JSON.stringify(input.mutations)}:\n${mutated.source}`;
  },
};

/** (c) Random valid programs, run headless under the guard and limits on both engines. */
const programs: Fuzzer<[GenProgram, RunSettings], { source: string; settings: RunSettings }> = {
  arbitrary: fc.tuple(program, runSettings),
  prepare: ([p, settings]) => ({ source: printProgram(p), settings }),
  check: ({ source, settings: s }) => {
    const loaded = checkLoad([{ file: 'gen.pw', source }]);
    // the generator only writes valid programs: a compile error is a generator bug or a compiler bug
    assert.ok(loaded.program, `a generated program did not compile:\n${loaded.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`).join('\n')}`);
    checkRun(loaded.program, { fps: s.fps, until: s.untilMs * UNITS_PER_MS, seed: s.seed, keepGoing: s.keepGoing, ...FUZZ_LIMITS });
  },
  show: ({ source, settings }) => `settings ${JSON.stringify(settings)} limits ${JSON.stringify(FUZZ_LIMITS)}\n${source}`,
};

/** Where a generated world is saved: a fraction of the game time its run reaches, and the engine that saves it. */
interface SavePoint {
  at: number;
  on: 'generated code' | 'interpreter';
}
const savePoint: fc.Arbitrary<SavePoint> = fc.record({ at: fc.double({ min: 0.01, max: 0.99, noNaN: true }), on: fc.constantFrom('generated code' as const, 'interpreter' as const) });

/** (d) Random valid programs saved at a random moment and restored into the other engine: the run goes on as if never saved. */
const saves: Fuzzer<[GenProgram, RunSettings, SavePoint], { source: string; settings: RunSettings; save: SavePoint }> = {
  arbitrary: fc.tuple(program, runSettings, savePoint),
  prepare: ([p, settings, save]) => ({ source: printProgram(p), settings, save }),
  check: ({ source, settings: s, save }) => {
    const loaded = checkLoad([{ file: 'gen.pw', source }]);
    assert.ok(loaded.program, `a generated program did not compile:\n${loaded.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`).join('\n')}`);
    checkSaveRestore(loaded.program, { fps: s.fps, until: s.untilMs * UNITS_PER_MS, seed: s.seed, keepGoing: true, ...FUZZ_LIMITS }, save.at, save.on);
  },
  show: ({ source, settings, save }) => `settings ${JSON.stringify(settings)} saved at ${save.at} of the run on the ${save.on}, limits ${JSON.stringify(FUZZ_LIMITS)}\n${source}`,
};

/** (e) Strings and lists grown up to and past the size limits: the limits hold on both engines, and passing one is a script error. */
const sizes: Fuzzer<GrowthProgram, string> = {
  arbitrary: growthProgram,
  prepare: printGrowth,
  check: (source) => {
    const loaded = checkLoad([{ file: 'gen.pw', source }]);
    assert.ok(loaded.program, `a generated program did not compile:\n${loaded.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`).join('\n')}`);
    // at most 16 × 8 × 40 iterations: the guard's default, so only the size limits can stop a run
    const out = checkRun(loaded.program, { fps: 60, until: 2000 * UNITS_PER_MS, seed: 1, ...FUZZ_LIMITS, loopGuard: 100_000 });
    for (const line of out.stdout) {
      const sizes = line.split(' ').map(Number);
      if (sizes.length !== 3 || sizes.some(Number.isNaN)) continue;
      assert.ok(sizes[0] <= FUZZ_LIMITS.maxString, `a string of ${sizes[0]} characters passed the limit of ${FUZZ_LIMITS.maxString}`);
      assert.ok(sizes[1] <= FUZZ_LIMITS.maxList && sizes[2] <= FUZZ_LIMITS.maxList, `a list of ${Math.max(sizes[1], sizes[2])} items passed the limit of ${FUZZ_LIMITS.maxList}`);
    }
    for (const text of out.stderr) assert.ok(LIMIT_ERROR.test(text), `an error that is no size limit's:\n${text}`);
  },
  show: (source) => `limits ${JSON.stringify(FUZZ_LIMITS)}\n${source}`,
};

const liveSettings: fc.Arbitrary<LiveSettings> = fc.record({ perRead: fc.constantFrom(0.5, 1, 2, 4), jit: fc.boolean(), saveFrame: fc.integer({ min: 1, max: 40 }) });

/** (f) Programs that spin where the guard does not count, beside ticking threads, run live on a virtual wall clock: the live host pauses the spin, the results do not change, and a paused world saves and restores. */
const preempt: Fuzzer<[SpinProgram, LiveSettings], { source: string; guardOff: boolean; live: LiveSettings }> = {
  arbitrary: fc.tuple(spinProgram, liveSettings),
  prepare: ([p, live]) => ({ source: printSpin(p), guardOff: p.guardOff, live }),
  check: ({ source, guardOff, live }) => {
    const loaded = checkLoad([{ file: 'gen.pw', source }]);
    assert.ok(loaded.program, `a generated program did not compile:\n${loaded.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`).join('\n')}`);
    checkPreempt(loaded.program, { loopGuard: guardOff ? 0 : FUZZ_LIMITS.loopGuard }, live);
  },
  show: ({ source, guardOff, live }) => `live ${JSON.stringify(live)}${guardOff ? ' --loop-guard 0' : ''} limits ${JSON.stringify(FUZZ_LIMITS)}\n${source}`,
};

/** (g) The demo's snapshots mutated as a player could, restored through pw run's reader and World.restore alike. */
const snapshots: Fuzzer<SnapshotInput, SnapshotInput> = {
  arbitrary: snapshotInput,
  prepare: (input) => input,
  check: checkSnapshot,
  show: showSnapshotInput,
};

export const FUZZERS = { text, mutate, programs, saves, sizes, preempt, snapshots } as const;
export type FuzzerName = keyof typeof FUZZERS;
