/**
 * Plugins import `@hermes/plugin-sdk` by name with no `node_modules` of their own, and must get
 * the host's copy of it (one copy of every seam class, so `instanceof` and brands agree). The
 * host copy is published on a global; an ESM resolve hook maps the specifier, when imported from
 * inside a loaded plugin folder, to a `data:` module re-exporting that global, and a
 * `Module._resolveFilename` wrapper serves the same object to `require` from those folders.
 * Both are installed once per process and told about new plugin folders as they load.
 */

import Module, { register } from 'node:module';
import { sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MessageChannel, type MessagePort } from 'node:worker_threads';

/** Where the host's copy of the SDK is published for plugins. */
export const SDK_HOST_KEY: unique symbol = Symbol.for('@hermes/plugin-sdk:host') as never;
const STATE_KEY = Symbol.for('@hermes/runtime:plugin-sdk-resolution');
const SDK_SPECIFIER = '@hermes/plugin-sdk';
// What `require.cache` holds the host copy under; no file exists there.
const SYNTHETIC_FILENAME = `${sep}__hermes_host__${sep}@hermes${sep}plugin-sdk${sep}index.cjs`;
// How long to wait for the hooks thread to confirm new folders before importing anyway.
const ACK_BACKSTOP_MS = 5_000;

/**
 * The resolve hook, run on Node's hooks thread. It is a `data:` module so it needs no file on
 * disk (the CLI is one CommonJS bundle). `data.port` brings later folders and SDK copies.
 */
const HOOK_SOURCE = `
let prefixes = [];
let url = '';
function apply(m) { prefixes = m.prefixes; url = m.url; }
export function initialize(data) {
  apply(data);
  data.port.on('message', (m) => { apply(m); data.port.postMessage({ ack: m.id }); });
}
export async function resolve(specifier, context, next) {
  const parent = context.parentURL;
  if (specifier === ${JSON.stringify(SDK_SPECIFIER)} && parent && prefixes.some((p) => parent.startsWith(p))) {
    return { url, shortCircuit: true };
  }
  return next(specifier, context);
}
`;

interface ResolutionState {
  /** Plugin folders (real paths) whose modules get the host copy. */
  readonly dirs: Set<string>;
  sdk: object | undefined;
  /** The `data:` URL of the module re-exporting the current host copy. */
  moduleUrl: string;
  generation: number;
  port: MessagePort | undefined;
  nextId: number;
  readonly pending: Map<number, () => void>;
  cjsInstalled: boolean;
}

type ResolveFilename = (
  request: string,
  parent: { readonly filename?: string | null } | null | undefined,
  isMain: boolean,
  options?: unknown,
) => string;

interface ModuleInternals {
  _resolveFilename: ResolveFilename;
  _cache: Record<string, unknown>;
  new (id: string): { filename: string; loaded: boolean; exports: unknown };
}

function state(): ResolutionState {
  const holder = globalThis as unknown as Record<symbol, ResolutionState | undefined>;
  holder[STATE_KEY] ??= {
    dirs: new Set(),
    sdk: undefined,
    moduleUrl: '',
    generation: 0,
    port: undefined,
    nextId: 0,
    pending: new Map(),
    cjsInstalled: false,
  };
  return holder[STATE_KEY];
}

/** A module whose exports are the host copy's, read from the global when it is evaluated. */
function reexportUrl(sdk: object, generation: number): string {
  const names = Object.keys(sdk).filter((n) => /^[A-Za-z_$][\w$]*$/.test(n) && n !== 'default');
  const source =
    `/* @hermes/plugin-sdk, the host's copy #${generation} */\n` +
    `const sdk = globalThis[Symbol.for(${JSON.stringify(Symbol.keyFor(SDK_HOST_KEY))})];\n` +
    `export const { ${names.join(', ')} } = sdk;\n`;
  return `data:text/javascript,${encodeURIComponent(source)}`;
}

function isInside(file: string, dirs: ReadonlySet<string>): boolean {
  for (const dir of dirs) if (file.startsWith(dir + sep)) return true;
  return false;
}

function hookMessage(s: ResolutionState): { prefixes: string[]; url: string } {
  return { prefixes: [...s.dirs].map((d) => `${pathToFileURL(d).href}/`), url: s.moduleUrl };
}

/** Sends new folders to the hooks thread and waits until it has them. */
function updateHook(s: ResolutionState, port: MessagePort): Promise<void> {
  const id = ++s.nextId;
  return new Promise((resolve) => {
    const backstop = setTimeout(() => finish(), ACK_BACKSTOP_MS);
    const finish = (): void => {
      clearTimeout(backstop);
      s.pending.delete(id);
      if (s.pending.size === 0) port.unref();
      resolve();
    };
    s.pending.set(id, finish);
    port.ref(); // an unreferenced port would let a script with nothing else to do exit here
    port.postMessage({ id, ...hookMessage(s) });
  });
}

function installEsmHook(s: ResolutionState): void {
  const { port1, port2 } = new MessageChannel();
  port1.on('message', (m: { ack: number }) => s.pending.get(m.ack)?.());
  port1.unref();
  register(`data:text/javascript,${encodeURIComponent(HOOK_SOURCE)}`, {
    data: { port: port2, ...hookMessage(s) },
    transferList: [port2],
  });
  s.port = port1;
}

function installCjsResolution(s: ResolutionState): void {
  const internals = Module as unknown as ModuleInternals;
  const original = internals._resolveFilename;
  internals._resolveFilename = function resolveFilename(request, parent, isMain, options) {
    const from = parent?.filename;
    if (request === SDK_SPECIFIER && from && s.sdk && isInside(from, s.dirs)) {
      const entry = new internals(SYNTHETIC_FILENAME);
      entry.filename = SYNTHETIC_FILENAME;
      entry.exports = s.sdk;
      entry.loaded = true;
      internals._cache[SYNTHETIC_FILENAME] = entry;
      return SYNTHETIC_FILENAME;
    }
    return original.call(this, request, parent, isMain, options);
  };
  s.cjsInstalled = true;
}

/**
 * Makes `import` and `require` of `@hermes/plugin-sdk` from inside `dirs` (real paths) resolve
 * to the host's copy. Loads the host copy (lazily: only when a plugin is about to load).
 */
export async function provideSdkTo(dirs: readonly string[]): Promise<void> {
  const sdk: object = await import('@hermes/plugin-sdk');
  const s = state();
  const globals = globalThis as unknown as Record<symbol, unknown>;
  let changed = false;
  if (s.sdk !== sdk) {
    s.sdk = sdk;
    s.generation++;
    s.moduleUrl = reexportUrl(sdk, s.generation);
    globals[SDK_HOST_KEY] = sdk;
    changed = true;
  }
  for (const dir of dirs) {
    if (!s.dirs.has(dir)) changed = true;
    s.dirs.add(dir);
  }
  if (!s.cjsInstalled) installCjsResolution(s);
  if (s.port === undefined) installEsmHook(s);
  else if (changed) await updateHook(s, s.port);
}
