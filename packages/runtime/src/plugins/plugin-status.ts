/** How each plugin fared, for `hermes plugins list`, `hermes doctor` and the log. */
import type { PluginSource } from './discover.js';

/**
 * - `loaded`: registered; `not_enabled`: found, not named in `plugins.enabled` nor selected;
 * - `disabled`: named in `plugins.disabled`; `missing_env`: a `requiresEnv` variable is unset;
 * - `incompatible`: its `hermes.minVersion` is newer than this host's plugin API (`SDK_VERSION`);
 * - `invalid`: its package.json or manifest is wrong, or its default export is not a plugin;
 * - `failed`: its entry or `register` threw; `timed_out`: either took too long.
 */
export type PluginState =
  | 'loaded'
  | 'not_enabled'
  | 'disabled'
  | 'missing_env'
  | 'incompatible'
  | 'invalid'
  | 'failed'
  | 'timed_out';

/** The names of what a plugin registered. */
export interface RegisteredNames {
  tools: string[];
  hooks: string[];
  commands: string[];
  platforms: string[];
  memoryProviders: string[];
  contextEngines: string[];
}

/** One plugin (or broken plugin folder) and what became of it. */
export interface PluginStatus {
  /** The package name; the folder name when the package.json has none. */
  readonly name: string;
  readonly version?: string;
  readonly source: PluginSource;
  readonly dir: string;
  /** Named in `plugins.enabled`, or providing the selected memory provider / context engine. */
  readonly enabled: boolean;
  readonly state: PluginState;
  /** Why it is not loaded, or what was skipped while it registered. */
  readonly message?: string;
  readonly registered: RegisteredNames;
}

/** Nothing registered. */
export function noRegistrations(): RegisteredNames {
  return {
    tools: [],
    hooks: [],
    commands: [],
    platforms: [],
    memoryProviders: [],
    contextEngines: [],
  };
}
