#!/usr/bin/env node
// @ts-check
/**
 * Usage: <node> tools/node-matrix/bin/smoke.mjs <cli-dir>
 * Runs the end-to-end smoke (smoke-checks.mjs) of the built CLI in <cli-dir> (the folder holding
 * `package.json` and `dist/bin.js`) with the Node running this script. Prints one line per
 * check and a closing `smoke: Node vX PASS|FAIL` line; exits 1 on any failure.
 */
import { resolve } from 'node:path';
import { runSmoke } from '../src/smoke-checks.mjs';

const [cliArg] = process.argv.slice(2);
if (!cliArg) {
  console.error('usage: node smoke.mjs <cli-dir>');
  process.exit(2);
}
const results = await runSmoke({ node: process.execPath, cliDir: resolve(cliArg) }, (result) => {
  console.log(`  ${result.ok ? 'ok  ' : 'FAIL'} ${result.name}`);
  if (!result.ok) console.log(`       ${result.detail.replaceAll('\n', '\n       ')}`);
});
const failed = results.filter((r) => !r.ok).length;
console.log(
  `smoke: Node ${process.version} ${failed === 0 ? 'PASS' : `FAIL (${failed} of ${results.length} checks)`}`,
);
process.exitCode = failed === 0 ? 0 : 1;
