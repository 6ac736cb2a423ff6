/**
 * Loads `dist/hermes.cjs`, the one-file build of the command line, with V8's code cache: the
 * bytecode an earlier run compiled is read from `HERMES_HOME/cache/code-cache/` instead of
 * compiling megabytes of JavaScript again, which was most of `hermes chat`'s start-up. Node 22
 * does this itself (`module.enableCompileCache`); Node 20 offers only `vm.Script`'s
 * `cachedData`. A missing, stale or rejected cache costs one ordinary compile, and the cache is
 * written again when that process exits.
 */

import { isAscii } from 'node:buffer';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import vm from 'node:vm';
import type { CommandLineMain } from '@hermes/config';

/** What `dist/hermes.cjs` exports (see `executable.ts`). */
export interface CompiledCli {
  runCommandLine(program: string, main: CommandLineMain): Promise<void>;
  main: CommandLineMain;
}

const PREFIX = 'hermes-';
const UNCACHED = new Set(['demo', 'help']);

/** The CommonJS module wrapper, so the bundle runs exactly as `require` would run it. */
function wrap(source: string): string {
  return `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
}

/** Where caches live: the data home's `cache/`, which the CLI creates anyway. */
export function codeCacheDir(env: NodeJS.ProcessEnv): string {
  const home = env.HERMES_HOME?.trim() ? env.HERMES_HOME : join(homedir(), '.hermes');
  return join(home, 'cache', 'code-cache');
}

/** A cache is only valid for this bundle file, Node version and CPU. FNV-1a, 32 bits. */
function fingerprint(bundle: string): string {
  const { size, mtimeMs } = statSync(bundle);
  const key = `${bundle}|${size}|${Math.trunc(mtimeMs)}|${process.version}|${process.arch}`;
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) {
    hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/**
 * One cache per command (`chat`, `sessions`, …): a cache holds the functions its run compiled,
 * so one written by `hermes --help` would leave most of `hermes chat` to compile every time.
 */
function commandOf(argv: readonly string[]): string {
  let word: string | undefined;
  for (let i = 0; i < argv.length && word === undefined; i += 1) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') return 'help';
    if (arg === '-p' || arg === '--profile') i += 1;
    else if (!arg.startsWith('-')) word = arg;
  }
  return word === undefined ? 'chat' : /^[a-z][a-z-]{0,20}$/.test(word) ? word : 'other';
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Writes the cache after the command ran, so it holds every function the run compiled. Only
 * into an existing data home (a cache is no reason to create one), and never fatally: without
 * it the next start is merely slower.
 */
function saveCache(script: vm.Script, dir: string, file: string, current: string): void {
  try {
    if (!existsSync(dirname(dirname(dir)))) return;
    mkdirSync(dir, { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, script.createCachedData());
    renameSync(temp, file);
    // Caches of an older bundle or Node are dead weight.
    for (const other of readdirSync(dir)) {
      if (other.startsWith(PREFIX) && !other.startsWith(current) && !other.endsWith('.tmp')) {
        rmSync(join(dir, other), { force: true });
      }
    }
  } catch {
    // A read-only or full disk: keep running without a cache.
  }
}

/** The bundle's text: built ASCII-only, so read as Latin-1 unless it somehow is not. */
function readSource(bundle: string): string {
  const bytes = readFileSync(bundle);
  return bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
}

/**
 * Loads and runs `bundle` (a CommonJS file) with the code cache for the command in `argv`, and
 * returns its exports.
 */
export function loadCompiledCli(
  bundle: string,
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): CompiledCli {
  const dir = codeCacheDir(env);
  const current = `${PREFIX}${fingerprint(bundle)}-`;
  const command = commandOf(argv);
  const file = join(dir, `${current}${command}.bin`);
  // The demo promises to leave the data home untouched; help is too short to be worth a cache.
  const cachedData = UNCACHED.has(command) ? undefined : readCache(file);
  const script = new vm.Script(wrap(readSource(bundle)), {
    filename: bundle,
    ...(cachedData ? { cachedData } : {}),
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (!UNCACHED.has(command) && (cachedData === undefined || script.cachedDataRejected === true)) {
    process.once('exit', () => saveCache(script, dir, file, current));
  }
  const module = { exports: {} as CompiledCli };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  return module.exports;
}
