/**
 * The entry of `dist/hermes.cjs`: the whole command line as one CommonJS file, which `bin.js`
 * loads through V8's code cache (see `code-cache.ts`). Only the executable uses it; the package's
 * library entry stays `dist/index.js`.
 */
import { config } from 'zod';

// A command runs once: zod's schema compiler (`new Function` per object schema, on its first
// parse) costs more than it saves in a process this short.
config({ jitless: true });

export { runCommandLine } from '@hermes/config';
export { main } from './index.js';
