#!/usr/bin/env node
/**
 * The `hermes` executable. `--version` is answered here before anything is imported; everything
 * else runs {@link main} from `dist/hermes.cjs`, the one-file build loaded through V8's code
 * cache (`code-cache.ts`). Without that file (a source checkout that was not built) it falls back
 * to the ES modules.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // dist/bin.js → the package's own package.json, one level up.
  const text = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
  process.stdout.write(`hermes ${(JSON.parse(text) as { version: string }).version}\n`);
} else {
  const bundle = fileURLToPath(new URL('./hermes.cjs', import.meta.url));
  if (existsSync(bundle)) {
    // The bundle runs in a vm.Script; plugins are imported through this module instead, since an
    // import() from inside the script prints an experimental-feature warning (plugin-loader.ts).
    (globalThis as Record<symbol, unknown>)[Symbol.for('@hermes/runtime:native-import')] = (
      url: string,
    ) => import(url);
    const { loadCompiledCli } = await import('./code-cache.js');
    const cli = loadCompiledCli(bundle, args);
    await cli.runCommandLine('hermes', cli.main);
  } else {
    const { runCommandLine } = await import('@hermes/config');
    const { main } = await import('./index.js');
    await runCommandLine('hermes', main);
  }
  // `hermes gateway run` stopped by a second signal (exit 130/143) leaves its drain running in
  // the background; the user asked to go now, so do not wait for the event loop to empty.
  if (process.exitCode === 130 || process.exitCode === 143) process.exit(process.exitCode);
}
