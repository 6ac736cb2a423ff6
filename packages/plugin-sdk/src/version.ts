/**
 * The plugin API's version — this package's own — and the comparison a host makes against a
 * plugin's `hermes.minVersion`. A host serves plugins its copy of this package, so the SDK's
 * version is the Hermes version a plugin is checked against.
 */
import { readFileSync } from 'node:fs';

/** Set by the build (tsup `define`); absent when the source runs directly (tests). */
declare const __HERMES_SDK_VERSION__: string | undefined;

/** The package's version from its package.json, one level above `src/`. */
function readOwnVersion(): string {
  const text = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
  const { version } = JSON.parse(text) as { version?: unknown };
  if (typeof version !== 'string')
    throw new Error('@hermes/plugin-sdk: package.json has no version');
  return version;
}

/** The version of the plugin API this copy of the SDK provides (its package version). */
export const SDK_VERSION: string =
  typeof __HERMES_SDK_VERSION__ === 'string' ? __HERMES_SDK_VERSION__ : readOwnVersion();

const VERSION = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

function comparePrerelease(a: string | undefined, b: string | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return 1; // a release is newer than its prereleases
  if (b === undefined) return -1;
  const left = a.split('.');
  const right = b.split('.');
  for (let i = 0; i < Math.max(left.length, right.length); i += 1) {
    const x = left[i];
    const y = right[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (x === y) continue;
    const numeric = /^\d+$/.test(x) && /^\d+$/.test(y);
    if (numeric) return Number(x) - Number(y);
    return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * Semantic-version precedence: negative when `a` is older than `b`, 0 when equal (build metadata
 * ignored), positive when newer. Throws on something that is not `MAJOR.MINOR.PATCH[-pre][+build]`.
 */
export function compareVersions(a: string, b: string): number {
  const x = VERSION.exec(a);
  const y = VERSION.exec(b);
  if (!x || !y) throw new Error(`not a semantic version: ${x ? b : a}`);
  for (let i = 1; i <= 3; i += 1) {
    const diff = Number(x[i]) - Number(y[i]);
    if (diff !== 0) return diff;
  }
  return comparePrerelease(x[4], y[4]);
}

/**
 * Why a plugin asking for `minVersion` cannot run on a host with `hostVersion` (default: this
 * SDK's), as one sentence with the fix; `undefined` when it can (or asks for nothing). Never
 * throws: a `minVersion` that is not a semantic version is itself the problem.
 */
export function minVersionProblem(
  minVersion: string | undefined,
  hostVersion: string = SDK_VERSION,
): string | undefined {
  if (minVersion === undefined) return undefined;
  // A manifest validated by another copy of the SDK may carry anything: never throw over it.
  if (!VERSION.test(minVersion)) {
    return `hermes.minVersion ${JSON.stringify(minVersion).slice(0, 40)} is not a semantic version such as 1.2.3`;
  }
  if (compareVersions(hostVersion, minVersion) >= 0) return undefined;
  return `needs Hermes plugin API ${minVersion} or newer, this host has ${hostVersion}: upgrade Hermes, or install a version of the plugin made for ${hostVersion}`;
}
