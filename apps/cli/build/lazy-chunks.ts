/**
 * An esbuild plugin for `dist/hermes.cjs` that keeps the lazy dependencies (`src/lazy-chunks.ts`)
 * out of it. Where bundled code imports one dynamically (`await import('@anthropic-ai/sdk')`),
 * the import becomes `require('<id>')`, which the CLI's loader answers from a separate file;
 * this plugin builds that file, `dist/lazy-<name>.cjs` (CommonJS, ASCII-only), from the module
 * the import would have bundled. A static import of the same id is bundled as usual.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Options } from 'tsup';
import { LAZY_DEPENDENCIES, lazyChunkFile } from '../src/lazy-chunks.ts';
import { toAscii } from './ascii-only.ts';

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

const NAMESPACE = 'hermes-lazy-chunk';
const filter = new RegExp(
  `^(${LAZY_DEPENDENCIES.map((id) => id.replace(/[/.]/g, '\\$&')).join('|')})$`,
);

/** The plugin; `outDir` is where the chunks are written (the bundle's own folder). */
export function lazyChunks(outDir: string): EsbuildPlugin {
  return {
    name: 'lazy-chunks',
    setup(build) {
      const entries = new Map<string, string>();
      build.onResolve({ filter }, async (args) => {
        // The stand-in module's own `require(id)`: left to the loader at run time.
        if (args.namespace === NAMESPACE) return { path: args.path, external: true };
        if (args.kind !== 'dynamic-import') return undefined;
        // The CommonJS entry where a package has one; our own packages are ES modules only.
        let resolved = await build.resolve(args.path, {
          kind: 'require-call',
          resolveDir: args.resolveDir,
        });
        if (resolved.errors.length > 0) {
          resolved = await build.resolve(args.path, {
            kind: 'import-statement',
            resolveDir: args.resolveDir,
          });
        }
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        entries.set(args.path, resolved.path);
        return { path: args.path, namespace: NAMESPACE };
      });
      // Written once the bundle built, so a failed build leaves no chunk behind.
      build.onEnd(async (result) => {
        if (result.errors.length > 0) return;
        for (const [id, entry] of entries) await buildChunk(build, entry, id);
      });
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(args.path)});`,
        loader: 'js',
      }));
    },
  };

  async function buildChunk(
    build: Parameters<EsbuildPlugin['setup']>[0],
    entry: string,
    id: string,
  ): Promise<void> {
    const result = await build.esbuild.build({
      entryPoints: [entry],
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      charset: 'ascii',
      // Native addons stay outside, as in the bundle: their `.node` file is found from the
      // package's own folder at run time.
      external: ['better-sqlite3'],
      // ES modules bundled into CommonJS lose `import.meta.url` (the skills folder is found
      // from it); the loader's module wrapper gives every chunk its own `__filename`.
      define: { 'import.meta.url': '__hermesImportMetaUrl' },
      banner: { js: "var __hermesImportMetaUrl = require('url').pathToFileURL(__filename).href;" },
      write: false,
      logLevel: 'silent',
      outfile: join(outDir, lazyChunkFile(id)),
    });
    for (const file of result.outputFiles) {
      mkdirSync(dirname(file.path), { recursive: true });
      writeFileSync(file.path, toAscii(file.text));
    }
  }
}
