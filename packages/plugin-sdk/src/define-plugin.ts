/** Declaring a plugin. */
import { parseOrThrow, ValidationError } from '@hermes/protocol';
import { type PluginManifest, type PluginManifestInput, PluginManifestSchema } from './manifest.js';
import type { PluginContext } from './plugin-context.js';

const PLUGIN_BRAND = Symbol.for('@hermes/plugin-sdk:plugin');

/** What a plugin author passes to {@link definePlugin}. */
export interface PluginDefinition {
  readonly manifest: PluginManifestInput;
  /** Registers the plugin's tools, hooks, platforms, …; called once by the host. */
  register(ctx: PluginContext): void | Promise<void>;
}

/** A validated plugin, ready for the host to load. */
export interface HermesPlugin {
  /** The validated, frozen manifest, with defaults filled in. */
  readonly manifest: PluginManifest;
  /** Calls the author's `register` with the host's context; always resolves asynchronously. */
  register(ctx: PluginContext): Promise<void>;
}

function freezeDeep<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) freezeDeep(inner);
    Object.freeze(value);
  }
  return value;
}

/**
 * Validates a plugin's manifest and returns the plugin as a frozen object, typically the
 * default export of the plugin's entry module. Nothing the author wrote runs until the host
 * calls `register`.
 *
 * @throws `ValidationError` (code `validation.invalid_input`) naming each bad manifest field, or
 *   `register` when it is not a function.
 *
 * @example
 * export default definePlugin({
 *   manifest: { name: 'hermes-plugin-hello', version: '1.0.0', kind: 'tool' },
 *   register(ctx) {
 *     ctx.registerTool({ schema: helloSchema, handler: () => 'hello' });
 *   },
 * });
 */
export function definePlugin(definition: PluginDefinition): HermesPlugin {
  const hint = 'Fix the manifest passed to definePlugin().';
  const manifest = freezeDeep(
    parseOrThrow(PluginManifestSchema, definition?.manifest, 'plugin manifest', hint),
  );
  if (typeof (definition.register as unknown) !== 'function') {
    throw new ValidationError(
      `plugin definition of "${manifest.name}"`,
      [{ path: 'register', message: 'must be a function taking the plugin context' }],
      hint,
    );
  }
  const run = definition.register.bind(definition);
  const plugin: HermesPlugin = {
    manifest,
    async register(ctx: PluginContext): Promise<void> {
      await run(ctx);
    },
  };
  Object.defineProperty(plugin, PLUGIN_BRAND, { value: true, enumerable: false });
  return Object.freeze(plugin);
}

/**
 * True when `value` was made by {@link definePlugin}, by any copy of this package: what the host
 * checks a plugin module's default export with.
 */
export function isHermesPlugin(value: unknown): value is HermesPlugin {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[PLUGIN_BRAND] === true
  );
}
