/**
 * One configured model provider, as `createProvider` accepts it from config or code: its schema,
 * and how its keys, its endpoint and its fallback entries are read.
 */
import { HermesError, parseOrThrow } from '@hermes/protocol';
import { z } from 'zod';
import { type ApiMode, ApiModeSchema } from './api-mode.js';
import { type CredentialInput, CredentialInputSchema } from './credentials/credential.js';
import { credentialsFromEnv, keyVariablesFor } from './credentials/env-credentials.js';
import { PoolStrategySchema } from './credentials/strategies.js';
import { FallbackChainSchema, type FallbackEntry } from './fallback/fallback-config.js';
import { ModelLimitOverridesSchema } from './models/model-limits.js';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The retry settings of a provider; every field has the retry module's default. */
export const ProviderRetryConfigSchema = z.strictObject({
  /** Calls in total, the first included. Default 3; 1 turns retries off. */
  maxAttempts: z.number().int().min(1).max(20).optional(),
  /** Base of the exponential backoff, ms. Default 5,000. */
  baseMs: z.number().int().nonnegative().optional(),
  /** Cap of the exponential part, ms; also the longest `retry-after` waited for. Default 120,000. */
  maxMs: z.number().int().nonnegative().optional(),
  /** Retry even after visible text streamed (the caller de-duplicates). Default false. */
  retryAfterVisibleText: z.boolean().optional(),
});
export type ProviderRetryConfig = z.infer<typeof ProviderRetryConfigSchema>;

/**
 * A provider entry. At most one key source: `apiKey` (one literal key), `apiKeyEnv` (a variable,
 * plus its numbered `_1`, `_2`, … variants and comma lists), or `credentials` (a pool). With none,
 * the provider's default variable is read (`OPENROUTER_API_KEY` for `openrouter`). Unknown
 * fields are rejected, so a typo fails loudly instead of being ignored.
 */
export const ProviderConfigSchema = z
  .strictObject({
    /** The configured name (`openrouter`, `anthropic`, `openai`, `local-vllm`, …). */
    provider: z.string().trim().min(1, 'provider must not be empty'),
    /** The model to ask for. */
    model: z.string().trim().min(1, 'model must not be empty'),
    /** The wire protocol; resolved from the provider name and base URL when absent. */
    apiMode: ApiModeSchema.optional(),
    /** The endpoint, when not the protocol's default. */
    baseUrl: z.url({ protocol: /^https?$/, error: 'baseUrl must be an http(s) URL' }).optional(),
    /** One literal key. Prefer `apiKeyEnv`: config files get shared. */
    apiKey: z.string().trim().min(1, 'apiKey must not be empty').optional(),
    /** The environment variable holding the key (or several keys). */
    apiKeyEnv: z
      .string()
      .regex(ENV_NAME, 'apiKeyEnv must be an environment variable name')
      .optional(),
    /** Several keys for one provider: a credential pool. */
    credentials: z.array(CredentialInputSchema).min(1, 'credentials must not be empty').optional(),
    /** How the pool picks a key. Default `fill_first`. */
    poolStrategy: PoolStrategySchema.optional(),
    /** Abort a stream silent for this long, ms. Default 180,000. */
    staleTimeoutMs: z.number().int().positive().optional(),
    /** Extra HTTP headers sent to this provider only. */
    headers: z.record(z.string().min(1), z.string()).optional(),
    /** Per-model context window / output overrides. */
    modelLimits: ModelLimitOverridesSchema.optional(),
    /** The fallback chain, tried in order when this provider fails. */
    fallback: FallbackChainSchema.optional(),
    /** Retries of transient failures, inside each member of the chain. */
    retry: ProviderRetryConfigSchema.optional(),
  })
  .superRefine((config, context) => {
    const given = (['apiKey', 'apiKeyEnv', 'credentials'] as const).filter(
      (field) => config[field] !== undefined,
    );
    if (given.length > 1) {
      context.addIssue({
        code: 'custom',
        path: [given[1] ?? 'apiKey'],
        message: `give one of apiKey, apiKeyEnv or credentials, not ${given.join(' and ')}`,
      });
    }
  });
export type ProviderConfig = z.infer<typeof ProviderConfigSchema>;
/** What callers may write: the schema's input (every optional field may be omitted). */
export type ProviderConfigInput = z.input<typeof ProviderConfigSchema>;

/** Validates a provider entry, or throws a `ValidationError` naming every bad field. */
export function parseProviderConfig(input: unknown): ProviderConfig {
  return parseOrThrow(
    ProviderConfigSchema,
    input,
    'provider config',
    'A provider entry needs `provider` and `model`; give at most one of apiKey, apiKeyEnv, credentials.',
  );
}

/** The code of the error raised when a provider entry has no API key anywhere. */
export const MISSING_API_KEY_CODE = 'provider.missing_api_key';

/**
 * Endpoints of well-known OpenAI-compatible services, used when an entry speaking Chat
 * Completions names the service but no `baseUrl` (the adapter's own default is OpenAI's).
 */
export const KNOWN_BASE_URLS: Readonly<Record<string, string>> = {
  openrouter: 'https://openrouter.ai/api/v1',
  deepseek: 'https://api.deepseek.com/v1',
  groq: 'https://api.groq.com/openai/v1',
  xai: 'https://api.x.ai/v1',
  mistral: 'https://api.mistral.ai/v1',
  together: 'https://api.together.xyz/v1',
  ollama: 'http://127.0.0.1:11434/v1',
};

/** The endpoint of an entry speaking `mode`: its own, a known service's, or the adapter's default. */
export function resolveBaseUrl(config: ProviderConfig, mode: ApiMode): string | undefined {
  if (config.baseUrl !== undefined) return config.baseUrl;
  return mode === 'chat_completions' ? KNOWN_BASE_URLS[config.provider.toLowerCase()] : undefined;
}

/**
 * Where an entry's keys came from. `sdk_default`: none was found and none is needed — the
 * adapter's SDK resolves credentials itself (Bedrock: the AWS default credential chain).
 */
export type KeySource = 'apiKey' | 'apiKeyEnv' | 'credentials' | 'default_env' | 'sdk_default';

/** An entry's keys, in priority order, and where they were found. */
export interface ProviderKeys {
  readonly keys: readonly CredentialInput[];
  readonly source: KeySource;
  /** The variables read, for the env sources. */
  readonly variables?: readonly string[];
}

/** Options of {@link resolveProviderKeys}. */
export interface ResolveKeysOptions {
  /**
   * The adapter authenticates without a key when none is found (Bedrock's AWS credential
   * chain): no keys is then `{keys: [], source: 'sdk_default'}` instead of an error.
   */
  readonly keyOptional?: boolean;
}

/**
 * The keys of an entry: `credentials`, `apiKey`, or what `credentialsFromEnv` finds in `env`
 * under `apiKeyEnv` or the provider's default variables (`keyVariablesFor`).
 *
 * @throws HermesError `provider.missing_api_key`, naming the variables to set, when there are
 *   none (unless `keyOptional` and no `apiKeyEnv` was named: a named variable must be set).
 */
export function resolveProviderKeys(
  config: ProviderConfig,
  env: Readonly<Record<string, string | undefined>>,
  options: ResolveKeysOptions = {},
): ProviderKeys {
  if (config.credentials !== undefined) return { keys: config.credentials, source: 'credentials' };
  if (config.apiKey !== undefined) {
    return { keys: [{ apiKey: config.apiKey, label: 'apiKey' }], source: 'apiKey' };
  }
  const source: KeySource = config.apiKeyEnv === undefined ? 'default_env' : 'apiKeyEnv';
  const variables =
    config.apiKeyEnv === undefined ? keyVariablesFor(config.provider) : [config.apiKeyEnv];
  const keys = credentialsFromEnv(env, config.provider, { variables });
  if (keys.length === 0 && options.keyOptional === true && source === 'default_env') {
    return { keys: [], source: 'sdk_default', variables };
  }
  if (keys.length === 0) throw missingKey(config.provider, variables);
  return { keys, source, variables };
}

function missingKey(provider: string, variables: readonly string[]): HermesError {
  return new HermesError(
    MISSING_API_KEY_CODE,
    `No API key for ${provider}: set ${variables.join(' or ')} in the environment, ` +
      'or give apiKey or credentials in the provider config.',
    { details: { provider, variables: [...variables] } },
  );
}

/**
 * A fallback entry as a provider entry of its own: its endpoint, its key variable or its own
 * credential pool, and the parent's stale timeout and model limits (they describe models, not
 * services). The parent's headers, keys and pool strategy stay with it: they belong to its
 * service.
 */
export function fallbackEntryConfig(parent: ProviderConfig, entry: FallbackEntry): ProviderConfig {
  return {
    provider: entry.provider,
    model: entry.model,
    ...(entry.baseUrl === undefined ? {} : { baseUrl: entry.baseUrl }),
    ...(entry.apiKeyEnv === undefined ? {} : { apiKeyEnv: entry.apiKeyEnv }),
    ...(entry.credentials === undefined ? {} : { credentials: entry.credentials }),
    ...(entry.poolStrategy === undefined ? {} : { poolStrategy: entry.poolStrategy }),
    ...(parent.staleTimeoutMs === undefined ? {} : { staleTimeoutMs: parent.staleTimeoutMs }),
    ...(parent.modelLimits === undefined ? {} : { modelLimits: parent.modelLimits }),
  };
}
