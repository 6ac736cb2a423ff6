import { defineConfig } from 'tsup';
import { hermesTsup } from '../../tsup.shared.ts';
import { asciiOnly } from './build/ascii-only.ts';
import { lazyChunks } from './build/lazy-chunks.ts';
import { zodEnglishOnly } from './build/zod-english-only.ts';

// The library entry (`main`, `VERSION`) and the executable; the shebang is the first line of
// src/bin.ts and esbuild keeps it, so only dist/bin.js starts with it.
// Code splitting is on so each lazily imported command becomes its own chunk: without it esbuild
// hoists every command's imports (the agent, providers, SQLite) into bin.js, and `--version`
// would load them all.
// The app bundles its pure-JS dependencies (the workspace packages, zod, yaml, the SDKs): Node
// resolves, reads and compiles hundreds of small module files otherwise, which was most of the
// start-up time of `hermes chat`. Only native and test-only modules stay external.
const shared = hermesTsup(['src/index.ts', 'src/bin.ts']) as Parameters<typeof defineConfig>[0];
// pg's optional native binding and its Cloudflare socket are never used here: left as imports
// that nothing reaches, so the bundle builds without them installed.
const bundled = {
  external: ['better-sqlite3', 'vitest', 'pg-native', 'pg-cloudflare', 'cloudflare:sockets'],
  noExternal: [/^(?!better-sqlite3$|vitest$|pg-native$|pg-cloudflare$|cloudflare:sockets$)/],
  // …and some use `__filename` / `__dirname` (ESM) or `import.meta.url` (CommonJS), which
  // tsup's shims provide.
  shims: true,
};
export default defineConfig([
  {
    ...(shared as object),
    ...bundled,
    // tsup runs both configs at once: a clean here could delete `hermes.cjs` or a lazy chunk the
    // other config just wrote. `npm run build` empties dist/ before tsup starts instead.
    clean: false,
    splitting: true,
    // Bundled CommonJS modules (yaml, drizzle) `require` Node built-ins; ESM output has no
    // `require`, so each chunk gets one.
    banner: {
      js: "import { createRequire as __hermesCreateRequire } from 'node:module'; const require = __hermesCreateRequire(import.meta.url);",
    },
  },
  // `dist/hermes.cjs`: the whole command line in one CommonJS file, which `bin.js` runs through
  // V8's code cache (`src/code-cache.ts`). Node 20 can cache compiled code for a `vm.Script`
  // but not for ES modules, and compiling was the largest part of `hermes chat`'s start-up.
  {
    ...bundled,
    entry: { hermes: 'src/executable.ts' },
    format: ['cjs'],
    target: 'node20',
    platform: 'node',
    splitting: false,
    sourcemap: false,
    clean: false,
    dts: false,
    // ASCII only, so the loader can read it as one-byte Latin-1 text: three times faster than
    // decoding UTF-8 into a two-byte string.
    plugins: [asciiOnly],
    // The large dependencies few runs use (the Anthropic SDK, undici) are files of their own,
    // and of zod's message translations only English is kept: a start reads, decodes and runs
    // about half as much code (`src/lazy-chunks.ts`, `build/zod-english-only.ts`).
    esbuildPlugins: [lazyChunks('dist'), zodEnglishOnly],
  },
]);
