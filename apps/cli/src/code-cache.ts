/**
 * Loads `dist/hermes.cjs`, the one-file build of the command line, with V8's code cache: the
 * bytecode an earlier run compiled is read from `HERMES_HOME/cache/code-cache/` instead of
 * compiling megabytes of JavaScript again, which was most of `hermes chat`'s start-up. Node 22
 * does this itself (`module.enableCompileCache`); Node 20 offers only `vm.Script`'s
 * `cachedData`. A missing, stale or rejected cache costs one ordinary compile, and the cache is
 * written again when that process exits. The large dependencies few runs use are separate files
 * (`lazy-chunks.ts`), loaded the same way when the bundle first asks for them.
 */

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
import { LAZY_DEPENDENCIES, lazyChunkFile } from './lazy-chunks.js';
import { traceStartup } from './startup-trace.js';

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

/**
 * A cache is only valid for these exact files (the bundle and its lazy chunks, which are built
 * together), this Node version and CPU. FNV-1a, 32 bits.
 */
function fingerprint(files: readonly string[]): string {
  let key = `${process.version}|${process.arch}`;
  for (const file of files) {
    const { size, mtimeMs } = statSync(file);
    key += `|${file}|${size}|${Math.trunc(mtimeMs)}`;
  }
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
    // Caches of an older build or Node are dead weight.
    for (const other of readdirSync(dir)) {
      if (other.startsWith(PREFIX) && !other.startsWith(current) && !other.endsWith('.tmp')) {
        rmSync(join(dir, other), { force: true });
      }
    }
  } catch {
    // A read-only or full disk: keep running without a cache.
  }
}

/** Where one file's cache goes, or undefined for a run that keeps none. */
interface CacheSlot {
  readonly dir: string;
  readonly file: string;
  readonly prefix: string;
}

/**
 * Compiles `file` (CommonJS, ASCII-only: read as one-byte Latin-1 text, three times faster than
 * decoding UTF-8) with the cache in `slot`, runs it with `require`, and returns its exports.
 */
function runCommonJs(file: string, slot: CacheSlot | undefined, require: NodeJS.Require): unknown {
  const cachedData = slot ? readCache(slot.file) : undefined;
  const source = readFileSync(file, 'latin1');
  traceStartup(`${file} read (${cachedData ? 'with' : 'without'} code cache)`);
  const script = new vm.Script(wrap(source), {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (slot && (cachedData === undefined || script.cachedDataRejected === true)) {
    process.once('exit', () => saveCache(script, slot.dir, slot.file, slot.prefix));
  }
  traceStartup(`${file} compiled`);
  const module = { exports: {} };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run(module.exports, require, module, file, dirname(file));
  return module.exports;
}

/**
 * Loads and runs `bundle` (a CommonJS file) with the code cache for the command in `argv`, and
 * returns its exports. The bundle's `require` serves the lazy chunks beside it, each through its
 * own cache, and passes everything else (Node's modules, `better-sqlite3`) to Node.
 */
export function loadCompiledCli(
  bundle: string,
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): CompiledCli {
  traceStartup('loading the bundle');
  const chunks = new Map(
    LAZY_DEPENDENCIES.map((id) => [id, join(dirname(bundle), lazyChunkFile(id))] as const).filter(
      ([, file]) => existsSync(file),
    ),
  );
  const dir = codeCacheDir(env);
  const prefix = `${PREFIX}${fingerprint([bundle, ...chunks.values()])}-`;
  const command = commandOf(argv);
  // The demo promises to leave the data home untouched; help is too short to be worth a cache.
  const slot = (name: string): CacheSlot | undefined =>
    UNCACHED.has(command) ? undefined : { dir, prefix, file: join(dir, `${prefix}${name}.bin`) };
  const nodeRequire = createRequire(bundle);
  const loaded = new Map<string, unknown>();
  const bundleRequire = Object.assign((id: string): unknown => {
    const chunk = chunks.get(id);
    if (chunk === undefined) return nodeRequire(id);
    if (!loaded.has(id)) {
      const name = `${command}.${lazyChunkFile(id).replace(/\.cjs$/, '')}`;
      loaded.set(id, runCommonJs(chunk, slot(name), createRequire(chunk)));
    }
    return loaded.get(id);
  }, nodeRequire);
  const cli = runCommonJs(bundle, slot(command), bundleRequire) as CompiledCli;
  traceStartup('bundle evaluated');
  return cli;
}
