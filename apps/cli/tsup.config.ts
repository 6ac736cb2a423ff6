import { hermesTsup } from '../../tsup.shared.ts';

// The library entry (`main`, `VERSION`) and the executable; the shebang is the first line of
// src/bin.ts and esbuild keeps it, so only dist/bin.js starts with it.
export default hermesTsup(['src/index.ts', 'src/bin.ts']);
