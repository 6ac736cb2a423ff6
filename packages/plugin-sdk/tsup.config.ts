import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/testing.ts'],
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  dts: { compilerOptions: { customConditions: [] } },
  sourcemap: true,
  clean: true,
  splitting: false,
  external: ['vitest', /^@hermes\//],
});
