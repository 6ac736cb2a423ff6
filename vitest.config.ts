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
    // One PostgreSQL server for the whole run (the stores' PostgreSQL suites), when installed.
    globalSetup: ['./tools/test-setup/postgres-global.ts'],
  },
});
