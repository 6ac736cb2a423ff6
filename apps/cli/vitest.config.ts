import { defineProject, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.ts';

// Many tests here run the built binary, some several times, against a local model server. On a
// loaded machine (two cores shared with other work) one run can take seconds, so the timeouts
// are far above what any test needs: a backstop for a hang, never a deadline a test races.
export default mergeConfig(
  sharedConfig,
  defineProject({ test: { name: 'cli', testTimeout: 120_000, hookTimeout: 60_000 } }),
);
