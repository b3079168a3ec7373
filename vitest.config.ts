import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker per core but one; on CI's two cores that is one file at a time, while many
    // files wait on the processes they start (the CLI, npm, PostgreSQL, Chromium). Two at least.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
