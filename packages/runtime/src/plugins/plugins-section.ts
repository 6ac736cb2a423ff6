/** The `plugins:` section of `config.yaml`: which plugins load and what each is told. */
import { z } from 'zod';

const name = z.string().trim().min(1, 'must not be empty');
// `enabled:` written with nothing under it is YAML null: the same as an empty list.
const names = z
  .array(name)
  .nullish()
  .transform((value) => value ?? []);

/** The default per-hook timeout, `plugins.hook_timeout_ms`. */
export const DEFAULT_HOOK_TIMEOUT_MS = 5_000;

/**
 * `plugins:` — plugins are off unless named in `enabled` (by package name or folder name);
 * `disabled` wins over `enabled` and over a `memory.provider` / `context.engine` selection.
 * Strict: a misspelt key is an error naming it, as in `gateway:`.
 */
export const PluginsSectionSchema = z.strictObject({
  /** Plugins to load, by package name, folder name or package name without its scope. */
  enabled: names,
  /** Plugins never to load, even when enabled or selected. */
  disabled: names,
  /** Plugins whose tools marked `override: true` may replace a built-in or another plugin's. */
  allow_override: names,
  /** Each plugin's own settings, `plugins.config.<name>`, handed to it as `ctx.config`. */
  config: z
    .record(z.string(), z.record(z.string(), z.unknown()))
    .nullish()
    .transform((value) => value ?? {}),
  /** How long one hook may run before it is skipped (a hook may ask for its own). */
  hook_timeout_ms: z
    .number()
    .int('expected whole milliseconds')
    .positive()
    .max(600_000)
    .default(DEFAULT_HOOK_TIMEOUT_MS),
});

/** The `plugins:` section after defaults: every list present, possibly empty. */
export type PluginsSection = z.output<typeof PluginsSectionSchema>;
/** The `plugins:` section as written. */
export type PluginsSectionInput = z.input<typeof PluginsSectionSchema>;
