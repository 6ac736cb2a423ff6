import { defineConfig } from 'tsup';

// Two entries: the library (`main`, `VERSION`, …) and the `hermes-gateway` executable. The
// shebang is the first line of src/bin.ts; esbuild keeps it, so only dist/bin.js starts with it.
export default defineConfig({
  entry: ['src/index.ts', 'src/bin.ts'],
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  dts: { compilerOptions: { customConditions: [] } },
  sourcemap: true,
  clean: true,
  splitting: false,
});
