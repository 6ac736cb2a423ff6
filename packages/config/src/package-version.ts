import { readFileSync } from 'node:fs';
import { HermesError } from '@hermes/protocol';

/**
 * Reads the `version` of a package from its package.json at runtime, so a binary reports the
 * version it was published with, whether it runs from `src/` (tests) or `dist/` (installed).
 *
 * @param manifestUrl - the package.json's URL, usually `new URL('../package.json', import.meta.url)`.
 * @param packageName - named in the error when the field is missing.
 * @throws HermesError `config.bad_manifest` when the file has no non-empty string `version`.
 */
export function readPackageVersion(manifestUrl: URL, packageName: string): string {
  const manifest: unknown = JSON.parse(readFileSync(manifestUrl, 'utf8'));
  if (typeof manifest === 'object' && manifest !== null && 'version' in manifest) {
    const { version } = manifest;
    if (typeof version === 'string' && version !== '') return version;
  }
  throw new HermesError(
    'config.bad_manifest',
    `${packageName}: its package.json (${manifestUrl.pathname}) has no "version" field; reinstall the package`,
  );
}
