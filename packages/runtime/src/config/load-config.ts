/**
 * The configuration loader both binaries use: `.env`, then config.yaml (validated, `${VAR}`
 * substituted), then flags on top. Precedence: CLI flags > config.yaml > the environment (`.env`
 * under the real environment, which wins unless empty) > defaults — except the `API_SERVER_*`
 * variables, which override `platforms.api_server` in config.yaml (Hermes' rule for them).
 */
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import {
  type PlatformSettings,
  resolveGatewaySettings,
  resolvePlatformSettings,
} from '@hermes/gateway';
import { DEFAULT_MEMORY_CHAR_LIMIT, DEFAULT_USER_CHAR_LIMIT } from '@hermes/memory';
import { applyApiServerEnv, readApiServerEnv } from './api-server-env.js';
import { resolveAuxiliary } from './auxiliary-section.js';
import { resolveCheckpoints } from './checkpoints-section.js';
import { readConfigSource } from './config-document.js';
import type { HermesConfigFile } from './config-schema.js';
import { resolveCronSettings } from './cron-section.js';
import { readEnvFile } from './env-file.js';
import type { ConfigFlags, HermesConfig, MemorySettings } from './hermes-config.js';
import { resolveLearning } from './learning-section.js';
import { applyPlatformAccessEnv } from './platform-env.js';
import { resolveProviderEntry } from './provider-entry.js';
import { resolveStorage } from './storage-section.js';
import { checkConfig, configError } from './validate-config.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The default of `agent.max_turns`. */
export const DEFAULT_MAX_TURNS = 90;

/** Reads a positive number from the environment, ignoring anything else. */
function envNumber(env: Env, name: string): number | undefined {
  const value = Number(env[name]);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

function expandHome(dir: string): string {
  return dir === '~' || dir.startsWith('~/') ? resolve(homedir(), dir.slice(2)) : resolve(dir);
}

/** `.env` under `env`: the real environment wins (unless empty). Pure: nothing is written. */
export function mergeDotenv(hermesHome: string, env: Env): { env: Env; warnings: string[] } {
  const dotenv = readEnvFile(hermesHome);
  const merged: Record<string, string | undefined> = { ...dotenv.values };
  // An empty variable does not hide a value from .env (a shell's `FOO= hermes` means unset).
  for (const [name, value] of Object.entries(env)) if (value) merged[name] = value;
  const warnings = dotenv.problems.map((p) => `.env line ${p.line}: ${p.message}; line ignored`);
  return { env: merged, warnings };
}

/**
 * Copies the `.env` variables the process environment lacks into `process.env` (what `dotenv`
 * does), so fallback providers, tools and child processes that read the environment see the
 * keys too. For the agent-running commands to call once at startup; returns the names copied.
 */
export function applyDotenvToProcess(hermesHome: string): string[] {
  const copied: string[] = [];
  for (const [name, value] of Object.entries(readEnvFile(hermesHome).values)) {
    if (process.env[name] !== undefined) continue;
    process.env[name] = value;
    copied.push(name);
  }
  return copied;
}

function memorySettings(file: HermesConfigFile): MemorySettings {
  return {
    provider: file.memory?.provider ?? 'builtin',
    memoryCharLimit: file.memory?.memory_char_limit ?? DEFAULT_MEMORY_CHAR_LIMIT,
    userCharLimit: file.memory?.user_char_limit ?? DEFAULT_USER_CHAR_LIMIT,
  };
}

/**
 * `platforms:` with the `<PLATFORM>_ALLOWED_USERS` fallbacks and the `API_SERVER_*` overrides, as
 * each platform's settings.
 */
function platformSettings(file: HermesConfigFile, env: Env): PlatformSettings[] {
  const withAccess = applyPlatformAccessEnv(file.platforms, env);
  return resolvePlatformSettings(applyApiServerEnv(withAccess, readApiServerEnv(env)));
}

/**
 * Resolves the configuration for `context.hermesHome` (the profile already applied), applying
 * `flags` on top. With no usable provider (no key, no model), `provider` is undefined and
 * `providerProblem` is one line naming `hermes setup`; the management commands still work.
 *
 * @throws HermesError `config.invalid` when config.yaml is broken, or an `API_SERVER_*` variable
 * cannot be read: its message lists every problem with its key path and line (see `hermes config
 * check`).
 */
export async function loadHermesConfig(
  context: {
    readonly hermesHome: string;
    readonly env: Env;
    /** Another config file than `HERMES_HOME/config.yaml` (`.env` still comes from the home). */
    readonly configPath?: string;
  },
  flags: ConfigFlags = {},
): Promise<HermesConfig> {
  const { env, warnings } = mergeDotenv(context.hermesHome, context.env);
  const source = readConfigSource(context.hermesHome, context.configPath);
  const check = checkConfig(source, env, context.hermesHome);
  if (check.problems.length > 0 || check.config === undefined) {
    throw configError(source.path, check.problems);
  }
  const file = check.config;
  const resolved = resolveProviderEntry(file, flags, env, { hermesHome: context.hermesHome });
  const runBudget =
    flags.runBudgetSeconds ?? file.agent?.run_budget_seconds ?? envNumber(env, 'HERMES_RUN_BUDGET');
  const toolsets = flags.toolsets ?? file.toolsets ?? undefined;
  const auxiliary = resolveAuxiliary(file.auxiliary, env);
  const learning = resolveLearning(file.learning);
  const checkpoints = resolveCheckpoints(file.checkpoints);
  // checkConfig already reported a storage problem; what is left resolves.
  const storage = resolveStorage(file.storage, env);
  return {
    hermesHome: context.hermesHome,
    provider: resolved.provider,
    ...(resolved.problem ? { providerProblem: resolved.problem } : {}),
    ...(resolved.providerName ? { providerName: resolved.providerName } : {}),
    ...(resolved.model ? { model: resolved.model } : {}),
    maxTurns:
      flags.maxTurns ??
      file.agent?.max_turns ??
      envNumber(env, 'HERMES_MAX_ITERATIONS') ??
      DEFAULT_MAX_TURNS,
    ...(runBudget === undefined ? {} : { runBudgetSeconds: runBudget }),
    ...(toolsets ? { toolsets } : {}),
    ...(file.disabled_toolsets ? { disabledToolsets: file.disabled_toolsets } : {}),
    ...(file.terminal ? { terminal: file.terminal } : {}),
    yolo: flags.yolo ?? false,
    skillDirs: (file.skills?.external_dirs ?? []).map(expandHome),
    warnings: [...warnings, ...check.warnings, ...auxiliary.warnings],
    env,
    configPath: source.path,
    memory: memorySettings(file),
    ...(file.compression ? { compression: file.compression } : {}),
    ...(file.context?.engine ? { contextEngine: file.context.engine } : {}),
    ...(file.plugins ? { plugins: file.plugins } : {}),
    ...(file.mcp_servers ? { mcpServers: file.mcp_servers } : {}),
    ...(file.display ? { display: file.display } : {}),
    ...(file.platform_toolsets ? { platformToolsets: file.platform_toolsets } : {}),
    gateway: resolveGatewaySettings(file.gateway, {
      ...(file.display?.tool_progress ? { toolProgress: file.display.tool_progress } : {}),
    }),
    platforms: platformSettings(file, env),
    cron: resolveCronSettings(file.cron),
    ...(Object.keys(auxiliary.config).length > 0 ? { auxiliary: auxiliary.config } : {}),
    ...(learning ? { learning } : {}),
    ...(checkpoints ? { checkpoints } : {}),
    ...('backend' in storage ? { storage } : {}),
  };
}
