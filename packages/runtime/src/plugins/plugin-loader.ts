/**
 * Importing a plugin's entry and running its `register`, each bounded in time. The import is
 * Node's own, so no bundler or test runner rewrites it: a plugin is plain JavaScript on disk,
 * loaded the way Node loads it.
 */
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { type HermesPlugin, isHermesPlugin } from '@hermes/plugin-sdk';

type NativeImport = (url: string) => Promise<unknown>;

// An `import()` compiled at run time, so bundlers leave it alone (they turn a literal `import(x)`
// into their own loader, which cannot read a file chosen at run time).
const functionImport = new Function('url', 'return import(url)') as NativeImport;
let mainLoaderImport: NativeImport | undefined;

/**
 * The same, compiled as a `vm.Script` told to use Node's main loader. Needed only inside a host
 * that evaluates modules with `vm` and no import callback (Vitest): there `new Function`
 * inherits the missing callback. Not the default because Node flags the option experimental
 * with a warning on stderr; Node before 20.12 lacks it.
 */
function getMainLoaderImport(): NativeImport | undefined {
  const constants = vm.constants as unknown as
    | { USE_MAIN_CONTEXT_DEFAULT_LOADER?: unknown }
    | undefined;
  const loader = constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER;
  if (!loader) return undefined;
  mainLoaderImport ??= new vm.Script('(url) => import(url)', {
    importModuleDynamically: loader as never,
  }).runInThisContext() as NativeImport;
  return mainLoaderImport;
}

let useMainLoader = false;

/**
 * Where an application that runs its code in a `vm.Script` (the `hermes` executable, which loads
 * its bundle through V8's code cache) offers an `import()` compiled in a real ES module: an
 * import from inside such a script makes Node print an experimental-feature warning.
 */
export const NATIVE_IMPORT_KEY = Symbol.for('@hermes/runtime:native-import');

/** Imports `url` with Node's own loader. */
async function nativeImport(url: string): Promise<unknown> {
  const offered = (globalThis as Record<symbol, unknown>)[NATIVE_IMPORT_KEY];
  if (typeof offered === 'function') return (offered as NativeImport)(url);
  const viaVm = useMainLoader ? getMainLoaderImport() : undefined;
  if (viaVm) return viaVm(url);
  try {
    return await functionImport(url);
  } catch (error) {
    const fallback = getMainLoaderImport();
    if (
      (error as { code?: unknown }).code !== 'ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING' ||
      !fallback
    ) {
      throw error;
    }
    useMainLoader = true;
    return fallback(url);
  }
}

/** Imports the entry file with Node's loader. */
export function importEntry(entry: string): Promise<unknown> {
  return nativeImport(pathToFileURL(entry).href);
}

/**
 * The plugin a module exports: its default export, or (a CommonJS module compiled with
 * `exports.default = …`) the default of that. Undefined when neither is a `definePlugin` result.
 */
export function pluginOf(namespace: unknown): HermesPlugin | undefined {
  const first = (namespace as { default?: unknown } | null)?.default;
  if (isHermesPlugin(first)) return first;
  const second = (first as { default?: unknown } | null | undefined)?.default;
  return isHermesPlugin(second) ? second : undefined;
}
