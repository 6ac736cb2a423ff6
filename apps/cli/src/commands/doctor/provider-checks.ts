/** The provider checks of `hermes doctor`: configured with a key, its fallbacks, reachable. */
import { type CredentialInput, credentialsFromEnv, keyVariablesFor } from '@hermes/providers';
import { type HermesConfig, PLACEHOLDER_API_KEY } from '@hermes/runtime';
import { testConnectivity } from '../setup/connectivity.js';
import type { CheckResult } from './check-result.js';

type ProviderEntry = NonNullable<HermesConfig['provider']>;
type FallbackEntry = NonNullable<ProviderEntry['fallback']>[number];

/** `3 keys (a pool: 2 from the environment, 1 from auth.json)`. */
function poolDetail(credentials: readonly CredentialInput[]): string {
  const stored = credentials.filter((key) => key.source === 'file').length;
  const fromEnv = credentials.filter((key) => key.source?.startsWith('env:')).length;
  const other = credentials.length - stored - fromEnv;
  const parts = [
    fromEnv > 0 ? `${fromEnv} from the environment` : '',
    stored > 0 ? `${stored} from auth.json` : '',
    other > 0 ? `${other} from config` : '',
  ].filter(Boolean);
  const count = credentials.length === 1 ? '1 key' : `${credentials.length} keys`;
  return `${count} (a pool: ${parts.join(', ')})`;
}

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
        ? poolDetail(entry.credentials)
        : 'key present';
  const where = entry.baseUrl ? ` at ${entry.baseUrl}` : '';
  return { name, status: 'ok', detail: `${entry.provider} / ${entry.model}${where}; ${key}` };
}

/** One fallback member: where its key comes from, or `undefined` when it has none. */
function fallbackKey(entry: FallbackEntry, env: HermesConfig['env']): string | undefined {
  if (entry.credentials) return poolDetail(entry.credentials);
  const variables = entry.apiKeyEnv ? [entry.apiKeyEnv] : keyVariablesFor(entry.provider);
  const found = credentialsFromEnv(env ?? {}, entry.provider, { variables });
  if (found.length > 0)
    return found.length === 1 ? (variables[0] ?? 'key present') : poolDetail(found);
  // A local server behind a base URL may need no key.
  return entry.baseUrl ? 'no key (a local server?)' : undefined;
}

/**
 * Each `model.fallback` member and where its key comes from; a warning for a member with none,
 * which would fail just when the primary does. Undefined when there is no fallback chain.
 */
export function checkFallback(config: HermesConfig): CheckResult | undefined {
  const chain = config.provider?.fallback ?? [];
  if (chain.length === 0) return undefined;
  const lines: string[] = [];
  const keyless: string[] = [];
  for (const entry of chain) {
    const key = fallbackKey(entry, config.env);
    if (key === undefined) keyless.push(entry.provider);
    lines.push(`${entry.provider} / ${entry.model}: ${key ?? 'no key'}`);
  }
  if (keyless.length === 0) return { name: 'fallback', status: 'ok', detail: lines.join('\n') };
  return {
    name: 'fallback',
    status: 'warn',
    detail: lines.join('\n'),
    fix: keyless
      .map(
        (provider) =>
          `set ${keyVariablesFor(provider)[0] ?? 'its key variable'} or run \`hermes auth add ${provider}\``,
      )
      .join('; '),
  };
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
