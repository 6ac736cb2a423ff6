import { readFileSync } from 'node:fs';
import { hermesTsup } from '../../tsup.shared.ts';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

// The SDK's version is written into the build: an app that bundles this package (the CLI) has no
// package.json of the SDK's next to its chunks to read it from.
export default {
  ...(hermesTsup(['src/index.ts', 'src/testing.ts']) as object),
  define: { __HERMES_SDK_VERSION__: JSON.stringify(version) },
};
