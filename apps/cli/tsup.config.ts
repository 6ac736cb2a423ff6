import { defineConfig } from 'tsup';
import { hermesTsup } from '../../tsup.shared.ts';

// The library entry (`main`, `VERSION`) and the executable; the shebang is the first line of
// src/bin.ts and esbuild keeps it, so only dist/bin.js starts with it.
// Code splitting is on so each lazily imported command becomes its own chunk: without it esbuild
// hoists every command's imports (the agent, providers, SQLite) into bin.js, and `--version`
// would load them all.
// The app bundles its pure-JS dependencies (the workspace packages, zod, yaml, the SDKs): Node
// resolves, reads and compiles hundreds of small module files otherwise, which was most of the
// start-up time of `hermes chat`. Only native and test-only modules stay external.
const shared = hermesTsup(['src/index.ts', 'src/bin.ts']) as Parameters<typeof defineConfig>[0];
export default defineConfig({
  ...(shared as object),
  splitting: true,
  external: ['better-sqlite3', 'vitest'],
  noExternal: [/^(?!better-sqlite3$|vitest$)/],
  // …and some use `__filename` / `__dirname`, which tsup's shims provide in ESM.
  shims: true,
  // Bundled CommonJS modules (yaml, drizzle) `require` Node built-ins; ESM output has no
  // `require`, so each chunk gets one.
  banner: {
    js: "import { createRequire as __hermesCreateRequire } from 'node:module'; const require = __hermesCreateRequire(import.meta.url);",
  },
});
