// @ts-check
/**
 * Helpers shared by the bin/ scripts.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The monorepo root to check: the first CLI argument, else the repo this package lives in, so
 * `node tools/repo-checks/bin/check-*.mjs` works from any working directory.
 * @param {readonly string[]} argv process.argv
 * @returns {string} absolute path
 */
export function rootFromArgs(argv) {
  const given = argv[2];
  return given ? resolve(given) : fileURLToPath(new URL('../../..', import.meta.url));
}
