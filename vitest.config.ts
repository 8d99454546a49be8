import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/build.ts'],
    setupFiles: ['test/setup/fast-check.ts'],
    testTimeout: 30000,
    pool: 'forks',
  },
});
