/**
 * A tsup plugin that leaves an output file pure ASCII. esbuild's `charset: 'ascii'` escapes
 * strings and identifiers but not comments or regular-expression literals; this rewrites what
 * remains as `\uXXXX` (one escape per UTF-16 unit), which means the same in both places. The
 * CLI's loader can then read the file as one-byte Latin-1 text instead of decoding UTF-8.
 */
import type { Options } from 'tsup';

type Plugin = NonNullable<Options['plugins']>[number];

/** `code` with every non-ASCII UTF-16 unit written as a `\uXXXX` escape. */
export function toAscii(code: string): string {
  return code.replace(/[\u0080-\uffff]/g, (unit) => {
    return `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

export const asciiOnly: Plugin = {
  name: 'ascii-only',
  esbuildOptions(options) {
    options.charset = 'ascii';
  },
  renderChunk(code) {
    return { code: toAscii(code) };
  },
};
