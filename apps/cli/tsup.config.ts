import { defineConfig } from 'tsup';
import { hermesTsup } from '../../tsup.shared.ts';

// The library entry (`main`, `VERSION`) and the executable; the shebang is the first line of
// src/bin.ts and esbuild keeps it, so only dist/bin.js starts with it.
// Code splitting is on so each lazily imported command becomes its own chunk: without it esbuild
// hoists every command's imports (the agent, providers, SQLite) into bin.js, and `--version`
// would load them all.
const shared = hermesTsup(['src/index.ts', 'src/bin.ts']) as Parameters<typeof defineConfig>[0];
export default defineConfig({ ...(shared as object), splitting: true });
