/** What `hermes auth` reads besides auth.json: config.yaml and the environment with `.env`. */
import { defaultCredentialPoolPath } from '@hermes/providers';
import {
  checkConfig,
  type HermesConfigFile,
  mergeDotenv,
  type ProviderKeyReport,
  readAuthFile,
  readConfigSource,
  reportProviderKeys,
} from '@hermes/runtime';
import type { CommandContext } from '../../command-context.js';

/** Everything the key listing needs, read once. */
export interface KeySources {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** config.yaml, validated; undefined when absent or broken (then `configBroken` is true). */
  readonly config: HermesConfigFile | undefined;
  readonly configBroken: boolean;
}

/**
 * Reads `.env` under the environment and config.yaml. A broken config.yaml does not stop
 * `hermes auth` (its keys live elsewhere): the caller says so and goes on without it.
 */
export function readKeySources(ctx: CommandContext): KeySources {
  const { env } = mergeDotenv(ctx.hermesHome, ctx.env);
  const check = checkConfig(readConfigSource(ctx.hermesHome), env, ctx.hermesHome);
  const broken = check.problems.length > 0 || check.config === undefined;
  return { env, config: broken ? undefined : check.config, configBroken: broken };
}

/**
 * Where the agent's pools keep key health: under the environment's `HERMES_HOME`, as
 * `createProvider` reads it — not under a `--profile`'s home, which the pools do not see.
 */
export function poolStateFile(ctx: CommandContext): string {
  return defaultCredentialPoolPath(ctx.env);
}

/** The key report for `provider` (or every provider with keys). @throws HermesError on a broken auth.json. */
export function keyReports(
  ctx: CommandContext,
  sources: KeySources,
  provider?: string,
): ProviderKeyReport[] {
  return reportProviderKeys({
    hermesHome: ctx.hermesHome,
    env: sources.env,
    config: sources.config,
    auth: readAuthFile(ctx.hermesHome),
    poolStatePath: poolStateFile(ctx),
    ...(provider === undefined ? {} : { provider }),
  });
}
