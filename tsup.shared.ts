/**
 * The one tsup setup every workspace package builds with: ESM for Node 20 with `.d.ts`, one file
 * per entry. Types are built against the dependencies' published `dist/` types (the source
 * condition is switched off), so a package's `.d.ts` never inlines another package's code.
 */
import { defineConfig } from 'tsup';

/** A tsup config for the given entry files (paths relative to the package). */
export function hermesTsup(entry: readonly string[]): ReturnType<typeof defineConfig> {
  return defineConfig({
    entry: [...entry],
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    dts: { compilerOptions: { customConditions: [] } },
    sourcemap: true,
    clean: true,
    splitting: false,
    // Declared dependencies are external already; these must never be bundled even by mistake.
    external: [/^@hermes\//, 'vitest'],
  });
}
