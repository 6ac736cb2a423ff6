/** What a plugin says about itself. */
import { z } from 'zod';

/** npm package names: lower-case, optionally scoped, at most 214 characters. */
export const PLUGIN_NAME_PATTERN = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

/** Semantic versions: `MAJOR.MINOR.PATCH`, with optional `-prerelease` and `+build`. */
export const SEMVER_PATTERN =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

const packageName = z
  .string()
  .max(214, 'name must be at most 214 characters')
  .regex(PLUGIN_NAME_PATTERN, 'name must be a lower-case npm package name, optionally scoped');

const semver = (field: string) =>
  z.string().regex(SEMVER_PATTERN, `${field} must be a semantic version such as 1.2.3`);

/**
 * The kinds of plugin. `memory`, `context-engine` and `provider` supply a mutually exclusive
 * strategy chosen by config; `tool` and `platform` add capabilities that stack; `general` is
 * anything else (hooks, commands, a mix).
 */
export const PluginKindSchema = z.enum([
  'tool',
  'memory',
  'context-engine',
  'platform',
  'provider',
  'general',
]);
export type PluginKind = z.infer<typeof PluginKindSchema>;

/**
 * A plugin's manifest. Written by plugin authors (and read from disk by the host), so it is
 * validated: `definePlugin` throws an error naming each bad field.
 */
export const PluginManifestSchema = z.object({
  /** The plugin's npm-style name, for example `hermes-plugin-weather` or `@acme/hermes-jira`. */
  name: packageName,
  /** The plugin's own version. */
  version: semver('version'),
  /** One line saying what the plugin does, shown by `hermes plugins list`. */
  description: z.string().optional(),
  /** What the plugin needs from Hermes. Optional; defaults to `{}`. */
  hermes: z
    .object({
      /** The oldest Hermes version the plugin works with. */
      minVersion: semver('hermes.minVersion').optional(),
    })
    .default({}),
  /** What the plugin mainly provides. Defaults to `general`. */
  kind: PluginKindSchema.default('general'),
});

/** A manifest as written, with `hermes` and `kind` optional. */
export type PluginManifestInput = z.input<typeof PluginManifestSchema>;
/** A validated manifest, with defaults filled in. */
export type PluginManifest = z.output<typeof PluginManifestSchema>;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const registeredNames = z.array(z.string().min(1)).optional();

/**
 * The `"hermes"` field of a plugin's `package.json`: what the host must know before it runs any
 * of the plugin's code. `provides` lets the host answer `hermes <command>`, `memory.provider:
 * <name>` and `context.engine: <name>` by loading only the plugin that offers them, and name the
 * available strategies when a selection is unknown.
 */
export const PluginPackageFieldSchema = z.strictObject({
  kind: PluginKindSchema.default('general'),
  /** Environment variables that must be set; without them the plugin is reported and skipped. */
  requiresEnv: z
    .array(z.string().regex(ENV_NAME, 'requiresEnv entries must be environment variable names'))
    .default([]),
  /** What `register` will register, by name (informational except as said above). */
  provides: z
    .strictObject({
      tools: registeredNames,
      commands: registeredNames,
      hooks: registeredNames,
      platforms: registeredNames,
      memoryProviders: registeredNames,
      contextEngines: registeredNames,
    })
    .default({}),
  /** The oldest Hermes version the plugin works with. */
  minVersion: semver('hermes.minVersion').optional(),
});

/** The `"hermes"` field after defaults. */
export type PluginPackageField = z.output<typeof PluginPackageFieldSchema>;

/** The parts of a plugin's `package.json` the host reads. */
export const PluginPackageJsonSchema = z.looseObject({
  name: packageName,
  version: semver('version'),
  description: z.string().optional(),
  type: z.enum(['module', 'commonjs']).optional(),
  main: z.string().min(1).optional(),
  exports: z.unknown().optional(),
  hermes: PluginPackageFieldSchema,
});

/** A validated plugin `package.json`. */
export type PluginPackageJson = z.output<typeof PluginPackageJsonSchema>;
