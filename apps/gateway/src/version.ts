import { readPackageVersion } from '@hermes/config';

// Relative to the running module: src/version.ts under tests, dist/*.js once built. Either way the
// package's own package.json is one level up, so this file must stay directly inside src/.
/** The version of `@hermes/gateway-server`, read at runtime from the package's own package.json. */
export const VERSION: string = readPackageVersion(
  new URL('../package.json', import.meta.url),
  '@hermes/gateway-server',
);
