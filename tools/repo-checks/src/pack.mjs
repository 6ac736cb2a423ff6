// @ts-check
/**
 * Pack checker: every publishable package must ship its build and nothing else.
 *
 * `npm pack --dry-run` is the source of truth because it applies the same rules (`files`,
 * .npmignore, always-included files) as the real publish, without writing a tarball.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { findMembers } from './workspace.mjs';

/**
 * @typedef {import('./workspace.mjs').Member} Member
 * @typedef {{ name: string, relDir: string, files: string[], problems: string[] }} PackResult
 * @typedef {(dir: string) => Promise<string[]>} FileLister
 */

const execFileAsync = promisify(execFile);

/** How many `npm pack` processes run at once; npm is CPU- and disk-heavy at start-up. */
export const PACK_CONCURRENCY = 4;

/** Every package must ship its built entry and its types. */
export const REQUIRED_FILES = ['dist/index.js', 'dist/index.d.ts'];

/** Top-level files allowed next to dist/ (npm adds these itself even when `files` omits them). */
const ALLOWED_TOP_LEVEL = new Set(['README.md', 'package.json']);
const LICENSE_FILE = /^(?:LICENSE(?:\.md)?|LICENCE.*)$/;

/**
 * @param {string} path a path as npm reports it, relative to the package root
 */
export function isAllowedPackPath(path) {
  return path.startsWith('dist/') || ALLOWED_TOP_LEVEL.has(path) || LICENSE_FILE.test(path);
}

/**
 * The pure decision: what is wrong with a package's publish file list.
 * @param {string} name package name, for the messages
 * @param {readonly string[]} files paths relative to the package root
 * @returns {string[]} one entry per problem; empty when the package is fine
 */
export function checkPackFiles(name, files) {
  const normalized = files.map(normalizePath);
  const unexpected = normalized.filter((path) => !isAllowedPackPath(path)).sort();
  const missing = REQUIRED_FILES.filter((path) => !normalized.includes(path));
  return [
    ...unexpected.map((path) => `${name} ships unexpected file ${path}`),
    ...missing.map((path) => `${name} is missing ${path} (build it, and keep dist in "files")`),
  ];
}

/**
 * @param {string} path
 */
function normalizePath(path) {
  return path.replaceAll('\\', '/').replace(/^\.\//, '');
}

/**
 * The files `npm pack` would publish from `dir`.
 * @type {FileLister}
 */
export async function listPackFiles(dir) {
  const { stdout } = await execFileAsync(
    'npm',
    ['pack', '--dry-run', '--json', '--ignore-scripts'],
    {
      cwd: dir,
      maxBuffer: 64 * 1024 * 1024,
      // No update check or funding notice: the check must stay fast and offline.
      env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false' },
    },
  );
  return parsePackJson(stdout);
}

/**
 * Reads the file paths out of `npm pack --json` output: `[{ files: [{ path }] }]`.
 * @param {string} stdout
 * @returns {string[]}
 */
export function parsePackJson(stdout) {
  /** @type {unknown} */
  const parsed = JSON.parse(stdout);
  const first = Array.isArray(parsed) ? parsed[0] : undefined;
  const files =
    typeof first === 'object' && first !== null && 'files' in first ? first.files : undefined;
  if (!Array.isArray(files)) throw new Error('npm pack --json printed no file list');
  return files.flatMap((entry) =>
    typeof entry === 'object' && entry !== null && 'path' in entry && typeof entry.path === 'string'
      ? [entry.path]
      : [],
  );
}

/**
 * Members under packages/* and apps/* that are published (not `"private": true`).
 * @param {string} rootDir
 * @returns {Member[]}
 */
export function publishableMembers(rootDir) {
  return findMembers(rootDir).filter(
    (member) => (member.kind === 'package' || member.kind === 'app') && !member.manifest.private,
  );
}

/**
 * Packs every publishable member (at most {@link PACK_CONCURRENCY} at once) and checks each list.
 * @param {string} rootDir
 * @param {{ listFiles?: FileLister }} [options] `listFiles` replaces npm in tests
 * @returns {Promise<PackResult[]>} in member order
 */
export async function checkPack(rootDir, options = {}) {
  const listFiles = options.listFiles ?? listPackFiles;
  return mapWithConcurrency(publishableMembers(rootDir), PACK_CONCURRENCY, async (member) => {
    const base = { name: member.name, relDir: member.relDir };
    try {
      const files = await listFiles(member.dir);
      return { ...base, files, problems: checkPackFiles(member.name, files) };
    } catch (error) {
      return { ...base, files: [], problems: [`npm pack failed: ${describeError(error)}`] };
    }
  });
}

/**
 * The most useful single line of a failure: npm's own error line when there is one, because
 * execFile's message starts with the generic "Command failed: npm pack ...".
 * @param {unknown} error
 */
export function describeError(error) {
  const stderr =
    typeof error === 'object' && error !== null && 'stderr' in error ? String(error.stderr) : '';
  const npmLine = stderr.split('\n').find((line) => /^npm (error|ERR!)/.test(line));
  if (npmLine) return npmLine.trim();
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n').find((line) => line.trim() !== '') ?? text;
}

/**
 * Like `Promise.all(items.map(fn))` but with at most `limit` calls in flight; keeps input order.
 * @template T, R
 * @param {readonly T[]} items
 * @param {number} limit
 * @param {(item: T) => Promise<R>} fn
 * @returns {Promise<R[]>}
 */
export async function mapWithConcurrency(items, limit, fn) {
  /** @type {R[]} */
  const results = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(/** @type {T} */ (items[i]));
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
