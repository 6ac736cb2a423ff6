#!/usr/bin/env node
// @ts-check
/**
 * Usage: node bin/check-pack.mjs [rootDir]
 * Runs `npm pack --dry-run` for every publishable package and app; needs built dist/ folders.
 * Prints one line per offending package and exits 1, or prints a summary and exits 0.
 */
import { rootFromArgs } from '../src/cli.mjs';
import { checkPack } from '../src/pack.mjs';

const rootDir = rootFromArgs(process.argv);
const results = await checkPack(rootDir);
const failing = results.filter((r) => r.problems.length > 0);

for (const r of failing) console.error(`pack: ${r.name} (${r.relDir}): ${r.problems.join('; ')}`);
if (failing.length > 0) {
  console.error(
    `pack: ${failing.length} of ${results.length} packages fail; set "files": ["dist"] and build first`,
  );
  process.exit(1);
}
const noun = results.length === 1 ? 'package' : 'packages';
console.log(`pack: ${results.length} ${noun} ship only dist/, README.md, package.json`);
