/** Which toolsets the agents of one gateway platform get. */
import { BUILTIN_TOOLSETS } from '@hermes/tools';
import type { HermesConfig } from '../config/hermes-config.js';

/** Hermes' bundle for a platform: `hermes-telegram`, `hermes-api-server` for `api_server`. */
export function platformBundle(platform: string): string {
  return `hermes-${platform.toLowerCase().replace(/_/g, '-')}`;
}

/**
 * The toolsets for agents on `platform`: `platform_toolsets.<platform>` when configured, else
 * Hermes' bundle for the platform when one exists (`hermes-telegram`, `hermes-api-server`,
 * `hermes-webhook` — the read-only set for untrusted input), else the configured `toolsets`,
 * else undefined (the default, `hermes-cli`).
 */
export function toolsetsFor(
  config: Pick<HermesConfig, 'platformToolsets' | 'toolsets'>,
  platform: string,
): readonly string[] | undefined {
  const configured = config.platformToolsets?.[platform];
  if (configured) return configured;
  const bundle = platformBundle(platform);
  if (Object.hasOwn(BUILTIN_TOOLSETS, bundle)) return [bundle];
  return config.toolsets;
}
