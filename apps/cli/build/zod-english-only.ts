/**
 * An esbuild plugin for `dist/hermes.cjs`: zod's `locales` namespace keeps only English, the
 * locale zod itself configures. zod re-exports all 40-odd translations of its error messages
 * (`z.locales`), and a bundle cannot drop any of them once the namespace is reachable, so every
 * start read, decoded and ran some 400 KB of translations nothing here uses. Code that picks
 * another locale (`z.config(z.locales.de())`) would find it missing: esbuild warns about a
 * missing named import at build time, and nothing in this repository does it.
 */
import type { Options } from 'tsup';

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

export const zodEnglishOnly: EsbuildPlugin = {
  name: 'zod-english-only',
  setup(build) {
    build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({
      contents: 'export { default as en } from "./en.js";\n',
      loader: 'js',
    }));
  },
};
