/**
 * The resolved configuration of one `hermes` invocation. Contract between the config loader
 * (`load-config.ts`) and the commands that run the agent (`chat`, `demo`, `setup`, `doctor`).
 */
import type { ProviderConfigInput } from '@hermes/providers';

/** Flags that override config.yaml (precedence: flags > config.yaml > .env > defaults). */
export interface CliFlags {
  readonly model?: string;
  readonly provider?: string;
  readonly baseUrl?: string;
  readonly toolsets?: readonly string[];
  readonly yolo?: boolean;
  readonly maxTurns?: number;
  readonly runBudgetSeconds?: number;
}

/** Everything the agent-running commands need. */
export interface CliConfig {
  readonly hermesHome: string;
  /** The provider entry for `createAgent`, or undefined when none is usable yet. */
  readonly provider: ProviderConfigInput | undefined;
  /** When `provider` is undefined: one line naming what is missing and `hermes setup`. */
  readonly providerProblem?: string;
  readonly maxTurns: number;
  readonly runBudgetSeconds?: number;
  readonly toolsets?: readonly string[];
  readonly disabledToolsets?: readonly string[];
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
  readonly memory?: CliMemorySettings;
  /** The `compression` section, as written (snake_case keys). */
  readonly compression?: Readonly<Record<string, unknown>>;
  /** The `display` section, as written (snake_case keys). */
  readonly display?: Readonly<Record<string, unknown>>;
}

/** The `memory` section after defaults. */
export interface CliMemorySettings {
  readonly provider: string;
  readonly memoryCharLimit: number;
  readonly userCharLimit: number;
}
