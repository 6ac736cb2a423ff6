import { readFileSync } from 'node:fs';
import { parseOrThrow } from '@hermes/protocol';
import { z } from 'zod';

// Relative to the running module: src/version.ts under tests, dist/*.js once built. Either way the
// package's own package.json is one level up, so this file must stay directly inside src/.
const manifestUrl = new URL('../package.json', import.meta.url);

/** The version of `@hermes/testkit`, read at runtime from the package's own package.json. */
export const VERSION: string = parseOrThrow(
  z.looseObject({ version: z.string().min(1) }),
  JSON.parse(readFileSync(manifestUrl, 'utf8')),
  '@hermes/testkit package.json',
).version;
