/**
 * The resolved configuration of one Hermes process: what `loadHermesConfig` returns and what
 * both binaries build agents from (the CLI's `chat`, `demo`, `setup`, `doctor`; the gateway).
 */
import type { GatewaySettings, PlatformSettings } from '@hermes/gateway';
import type { AuxiliaryConfig, CheckpointConfigInput, LearningConfig } from '@hermes/loop';
import type { McpServersSection } from '@hermes/mcp/config';
import type { ProviderConfigInput } from '@hermes/providers';
import type { PluginsSection } from '../plugins/plugins-section.js';
import type { CronSettings } from './cron-section.js';
import type { StorageSettings } from './storage-section.js';

/** Flags that override config.yaml (precedence: flags > config.yaml > .env > defaults). */
export interface ConfigFlags {
  readonly model?: string;
  readonly provider?: string;
  readonly baseUrl?: string;
  readonly toolsets?: readonly string[];
  readonly yolo?: boolean;
  readonly maxTurns?: number;
  readonly runBudgetSeconds?: number;
}

/** Everything a Hermes binary needs to run agents. */
export interface HermesConfig {
  readonly hermesHome: string;
  /** The provider entry for `createAgent`, or undefined when none is usable yet. */
  readonly provider: ProviderConfigInput | undefined;
  /** When `provider` is undefined: one line naming what is missing and `hermes setup`. */
  readonly providerProblem?: string;
  readonly maxTurns: number;
  readonly runBudgetSeconds?: number;
  readonly toolsets?: readonly string[];
  readonly disabledToolsets?: readonly string[];
  /** `platform_toolsets`: the toolsets of each platform (`telegram: [hermes-telegram, web]`). */
  readonly platformToolsets?: Readonly<Record<string, readonly string[]>>;
  /** The `terminal` section (backend, cwd, timeout, …). */
  readonly terminal?: Readonly<Record<string, unknown>>;
  readonly yolo: boolean;
  /** Extra skill directories (`skills.external_dirs`). */
  readonly skillDirs: readonly string[];
  /** Non-fatal notes (unknown keys, deprecated spellings), each one line. */
  readonly warnings: readonly string[];
  /**
   * The environment the configuration was resolved against: `.env` under the process
   * environment (the real environment wins). Pass it as `env` to `createProvider` and tools.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Where config.yaml is (it may not exist yet). */
  readonly configPath?: string;
  /** The provider name in use (also `provider.provider`), for status lines. */
  readonly providerName?: string;
  /** The model in use (also `provider.model`), for status lines. */
  readonly model?: string;
  /** The `memory` section: provider (default `builtin`) and the built-in store's limits. */
  readonly memory?: MemorySettings;
  /** The `compression` section, as written (snake_case keys). */
  readonly compression?: Readonly<Record<string, unknown>>;
  /** `context.engine`: the context engine selected (absent: the built-in `compressor`). */
  readonly contextEngine?: string;
  /** The `plugins:` section after defaults (absent when config.yaml has none). */
  readonly plugins?: PluginsSection;
  /**
   * The `mcp_servers:` section after defaults (`${VAR}` substituted), absent when config.yaml has
   * none; {@link startMcpForConfig} connects them.
   */
  readonly mcpServers?: McpServersSection;
  /** The `display` section, as written (snake_case keys). */
  readonly display?: Readonly<Record<string, unknown>>;
  /**
   * The `gateway:` section after defaults (`toolProgress` falls back to
   * `display.tool_progress`).
   */
  readonly gateway: GatewaySettings;
  /**
   * Every `platforms.<name>` entry, with the `API_SERVER_*` environment variables applied to
   * `api_server` (the environment wins over config.yaml).
   */
  readonly platforms: readonly PlatformSettings[];
  /**
   * The `cron:` section after defaults (`loadHermesConfig` always sets it; a configuration built
   * by hand may leave it out, and `cronSettingsOf` then gives the defaults).
   */
  readonly cron?: CronSettings;
  /**
   * The `auxiliary:` slots resolved into provider entries (keys from the environment); slots
   * left out run on the main model.
   */
  readonly auxiliary?: AuxiliaryConfig;
  /** The `learning:` section, as `createAgent`'s `learning` setting. */
  readonly learning?: LearningConfig;
  /** The `checkpoints:` section, as `createAgent`'s `checkpoints` setting. */
  readonly checkpoints?: CheckpointConfigInput;
  /**
   * Where sessions, jobs and the gateway's state live (`storage:` with `HERMES_DATABASE_URL`).
   * Absent (a configuration built by hand): SQLite in `HERMES_HOME/state.db`.
   */
  readonly storage?: StorageSettings;
}

/** The `memory` section after defaults. */
export interface MemorySettings {
  readonly provider: string;
  readonly memoryCharLimit: number;
  readonly userCharLimit: number;
}
