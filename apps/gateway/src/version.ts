import { readFileSync } from 'node:fs';

// This file must stay directly inside src/: the URL below is relative to the running module,
// which is src/version.ts under tests and tsc, and dist/index.js or dist/bin.js once built (tsup
// bundles this file into both). In every case the package's own package.json is one level up.
const manifest: unknown = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
);

function readVersion(value: unknown): string {
  if (typeof value === 'object' && value !== null && 'version' in value) {
    const { version } = value;
    if (typeof version === 'string' && version !== '') return version;
  }
  throw new Error('@hermes/gateway-server: its package.json has no "version" field');
}

/** The version of `@hermes/gateway-server`, read at runtime from the package's own package.json. */
export const VERSION: string = readVersion(manifest);
