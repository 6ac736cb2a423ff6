// @ts-check
/**
 * Discovers workspace members and their source files; shared by the boundary and pack checks.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * @typedef {'package' | 'app' | 'plugin'} MemberKind
 * @typedef {{
 *   name: string | undefined,
 *   private: boolean,
 *   dependencies: Record<string, string>,
 *   devDependencies: Record<string, string>,
 *   peerDependencies: Record<string, string>,
 * }} Manifest
 * @typedef {{
 *   name: string,
 *   kind: MemberKind,
 *   dir: string,
 *   relDir: string,
 *   manifest: Manifest,
 * }} Member
 */

/** Workspace folders the checks cover, and what kind of member each holds. */
export const MEMBER_GROUPS = /** @type {const} */ ([
  ['packages', 'package'],
  ['apps', 'app'],
  ['plugins', 'plugin'],
]);

/** Folders inside a member whose files are scanned, in addition to top-level config files. */
export const SOURCE_DIRS = ['src', 'test', 'bench'];

/** Extensions of files that can contain imports. */
export const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];

/** Build output and installed dependencies are never part of a member's own code. */
const SKIPPED_DIRS = new Set(['node_modules', 'dist']);

/**
 * @param {string} path
 * @returns {string} the path with `/` separators, so output reads the same on every OS
 */
export function toPosix(path) {
  return path.split(sep).join('/');
}

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
function isRecord(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Keeps only the string-valued entries of a package.json dependency map.
 * @param {unknown} value
 * @returns {Record<string, string>}
 */
function stringRecord(value) {
  /** @type {Record<string, string>} */
  const out = {};
  if (!isRecord(value)) return out;
  for (const [key, entry] of Object.entries(value)) if (typeof entry === 'string') out[key] = entry;
  return out;
}

/**
 * Reads the fields of a package.json the checks rely on.
 * @param {string} file
 * @returns {Manifest}
 */
export function readManifest(file) {
  /** @type {unknown} */
  let raw;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(
      `cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const obj = isRecord(raw) ? raw : {};
  return {
    name: typeof obj.name === 'string' ? obj.name : undefined,
    private: obj.private === true,
    dependencies: stringRecord(obj.dependencies),
    devDependencies: stringRecord(obj.devDependencies),
    peerDependencies: stringRecord(obj.peerDependencies),
  };
}

/**
 * Every folder with a package.json directly under packages/, apps/ and plugins/, sorted by path.
 * @param {string} rootDir absolute path of the monorepo root
 * @returns {Member[]}
 */
export function findMembers(rootDir) {
  /** @type {Member[]} */
  const members = [];
  for (const [group, kind] of MEMBER_GROUPS) {
    const groupDir = join(rootDir, group);
    if (!existsSync(groupDir)) continue;
    for (const entry of sortedEntries(groupDir)) {
      const dir = join(groupDir, entry.name);
      const manifestFile = join(dir, 'package.json');
      if (!entry.isDirectory() || !existsSync(manifestFile)) continue;
      const manifest = readManifest(manifestFile);
      const relDir = toPosix(relative(rootDir, dir));
      // A nameless member cannot be imported by name; its folder still identifies it in messages.
      members.push({ name: manifest.name ?? relDir, kind, dir, relDir, manifest });
    }
  }
  return members;
}

/**
 * @param {string} dir
 */
function sortedEntries(dir) {
  return readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * @param {string} name
 */
function isSourceFile(name) {
  return SOURCE_EXTENSIONS.some((ext) => name.endsWith(ext));
}

/**
 * Source files of a member: everything under src/, test/, bench/ plus top-level files such as
 * vitest.config.ts and tsup.config.ts, skipping node_modules/ and dist/. Sorted for stable output.
 * @param {string} memberDir
 * @returns {string[]} absolute paths
 */
export function listSourceFiles(memberDir) {
  const files = sortedEntries(memberDir)
    .filter((entry) => entry.isFile() && isSourceFile(entry.name))
    .map((entry) => join(memberDir, entry.name));
  for (const sub of SOURCE_DIRS) {
    const dir = join(memberDir, sub);
    if (existsSync(dir)) walk(dir, files);
  }
  return files;
}

/**
 * @param {string} dir
 * @param {string[]} out
 */
function walk(dir, out) {
  for (const entry of sortedEntries(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && !SKIPPED_DIRS.has(entry.name)) walk(path, out);
    else if (entry.isFile() && isSourceFile(entry.name)) out.push(path);
  }
}
