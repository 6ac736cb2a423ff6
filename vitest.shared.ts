/**
 * Vitest settings shared by every workspace project.
 *
 * The `@hermes/source` condition makes workspace imports resolve to each package's
 * `src/index.ts`, so tests run straight from TypeScript with no prior build.
 */
import { fileURLToPath } from 'node:url';
import { defaultServerConditions } from 'vite';
import type { ViteUserConfig } from 'vitest/config';

/*
 * Without `module`: vitest hands these conditions to Node itself (`--conditions`), and Node then
 * loads the AWS SDK's `module` builds, which import their own files without extensions and only
 * work through a bundler. Node never uses `module` on its own.
 */
const conditions = [
  '@hermes/source',
  ...defaultServerConditions.filter((condition) => condition !== 'module'),
];

export const sharedConfig: ViteUserConfig = {
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    environment: 'node',
    setupFiles: [fileURLToPath(new URL('./tools/test-setup/hermes-home.ts', import.meta.url))],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    restoreMocks: true,
  },
};
