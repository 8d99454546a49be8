// The order test files start in. Each worker takes the next file when it is done with
// one, so the longest should go first: a long file started last leaves the other worker
// idle at the end. Vitest's own order knows durations only from an earlier run on this
// machine; a fresh clone starts the larger files first, which put the fuzzers (small
// files, long runs) and the README's commands at the end. The files below start first,
// longest first (durations of a full run, docs/testing.md); the rest follow in Vitest's
// order.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const LONGEST = [
  'test/api/package.test.ts',
  'test/lang/cli.test.ts',
  'test/lang/lang.test.ts',
  'test/lang/readme.test.ts',
  'test/repl/terminal.test.ts',
  'test/fuzz/limits.test.ts',
  'test/lsp/robust.test.ts',
  'test/fuzz/mutate.test.ts',
  'test/oracles/cli.test.ts',
  'test/browser/playground.test.ts',
  'test/oracles/jobs.test.ts',
  'test/fuzz/programs.test.ts',
  'test/timeline/cli.test.ts',
  'test/lang/restore-files.test.ts',
  'test/repl/lines.test.ts',
  'test/explore/explore.test.ts',
  'test/dap/dap.test.ts',
  'test/lint/cli.test.ts',
  'test/lang/edges.test.ts',
  'test/repl/travel.test.ts',
  'test/fuzz/text.test.ts',
  'test/fuzz/preempt.test.ts',
  'test/grammar/direct.test.ts',
  'test/dap/stepping.test.ts',
  'test/browser/game.test.ts',
  'test/fuzz/snapshots.test.ts',
  'test/fuzz/regressions.test.ts',
  'test/fuzz/saves.test.ts',
];

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification): number => {
      const i = LONGEST.findIndex((name) => f.moduleId.endsWith(`/${name}`));
      return i < 0 ? LONGEST.length : i;
    };
    const rest = await super.sort(files.filter((f) => rank(f) === LONGEST.length));
    return [...files.filter((f) => rank(f) < LONGEST.length).sort((a, b) => rank(a) - rank(b)), ...rest];
  }
}
