import { defineConfig } from 'vitest/config';

/** Root config: runs every workspace project in one process pool with one summary. */
export default defineConfig({
  test: {
    projects: [
      'packages/*/vitest.config.ts',
      'apps/*/vitest.config.ts',
      'plugins/*/vitest.config.ts',
      'tools/*/vitest.config.ts',
    ],
    reporters: ['default', './tools/test-setup/summary-reporter.ts'],
    // Vitest's default on a 2-core machine is one worker (cores - 1). Most test time is spent
    // waiting on subprocesses, servers and databases, so three files at a time finish sooner.
    maxWorkers: 3,
    // One PostgreSQL server for the whole run (the stores' PostgreSQL suites), when installed.
    globalSetup: ['./tools/test-setup/postgres-global.ts'],
  },
});
