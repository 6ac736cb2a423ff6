/** The provider checks of `hermes doctor`: configured with a key, and reachable. */
import { type HermesConfig, PLACEHOLDER_API_KEY } from '@hermes/runtime';
import { testConnectivity } from '../setup/connectivity.js';
import type { CheckResult } from './check-result.js';

/** How long the reachability check may take. */
export const DOCTOR_TIMEOUT_MS = 5_000;

/** A provider and model are configured and a key is present (or not needed). */
export function checkProvider(config: HermesConfig): CheckResult {
  const name = 'provider';
  if (!config.provider) {
    return {
      name,
      status: 'fail',
      detail: config.providerProblem ?? 'no provider is configured',
      fix: 'run `hermes setup`',
    };
  }
  const entry = config.provider;
  const key =
    entry.apiKey === PLACEHOLDER_API_KEY
      ? 'no key (a local server)'
      : entry.credentials
        ? `${entry.credentials.length} keys (a pool)`
        : 'key present';
  const where = entry.baseUrl ? ` at ${entry.baseUrl}` : '';
  return { name, status: 'ok', detail: `${entry.provider} / ${entry.model}${where}; ${key}` };
}

/** The provider answers (lists its models or one tiny chat call), within a short timeout. */
export async function checkReachable(
  config: HermesConfig,
  offline: boolean,
  timeoutMs = DOCTOR_TIMEOUT_MS,
): Promise<CheckResult> {
  const name = 'reachable';
  if (offline) return { name, status: 'skip', detail: 'skipped (--offline)' };
  if (!config.provider) return { name, status: 'skip', detail: 'skipped: no provider configured' };
  const result = await testConnectivity(config.provider, config.env ?? {}, { timeoutMs });
  return result.ok
    ? { name, status: 'ok', detail: result.line }
    : {
        name,
        status: 'fail',
        detail: result.line,
        fix: 'check the key and base URL (`hermes setup`), or run with --offline to skip this check',
      };
}
