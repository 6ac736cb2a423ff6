#!/usr/bin/env node
// @ts-check
/**
 * Usage: node bin/check-boundaries.mjs [rootDir]
 * Prints one line per boundary violation and exits 1, or prints an OK summary and exits 0.
 * Exits 2 when the root holds no workspace members (almost always a wrong rootDir).
 */
import { scanBoundaries } from '../src/boundaries.mjs';
import { rootFromArgs } from '../src/cli.mjs';

const rootDir = rootFromArgs(process.argv);
const { violations, stats } = scanBoundaries(rootDir);

if (stats.members === 0) {
  console.error(`boundaries: no workspace members under ${rootDir}/{packages,apps,plugins}/*`);
  process.exit(2);
}
for (const v of violations) console.error(`boundaries [${v.kind}] ${v.message}`);
if (violations.length > 0) {
  console.error(`boundaries: ${violations.length} violation(s); see tools/repo-checks/README.md`);
  process.exit(1);
}
console.log(
  `boundaries: OK (${stats.members} members, ${stats.files} files, ${stats.imports} imports checked)`,
);
