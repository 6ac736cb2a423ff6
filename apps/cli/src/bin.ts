#!/usr/bin/env node
/**
 * The `hermes` executable: everything it does goes through {@link main}, except `--version`,
 * answered here before anything is imported — loading zod alone (via @hermes/config) costs more
 * than the whole 120 ms budget on a busy machine.
 */
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { readFileSync } = await import('node:fs');
  // dist/bin.js → the package's own package.json, one level up.
  const text = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
  process.stdout.write(`hermes ${(JSON.parse(text) as { version: string }).version}\n`);
} else {
  // A command runs once: zod's schema compiler (`new Function` per object schema, on its first
  // parse) costs more than it saves in a process this short.
  const { config } = await import('zod');
  config({ jitless: true });
  const { runCommandLine } = await import('@hermes/config');
  const { main } = await import('./index.js');
  await runCommandLine('hermes', main);
}
