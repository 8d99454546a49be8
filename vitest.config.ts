import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/setup/sequencer.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/build.ts'],
    setupFiles: ['test/setup/fast-check.ts'],
    // a backstop for hangs, not a speed bound: generous enough for a machine loaded ten times past its cores
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // forks, not threads: a test changes directory (process.chdir), which a worker thread may not
    pool: 'forks',
    // a worker per core, two at least (vitest's default leaves one core idle: on two cores, one file at a time,
    // while many tests wait on a child process)
    maxWorkers: Math.max(2, availableParallelism()),
    // a worker keeps the modules it loaded from one file to the next: no test relies on fresh module state
    isolate: false,
    // the longest files first, so that both workers finish together
    sequence: { sequencer: LongestFirst },
  },
});
