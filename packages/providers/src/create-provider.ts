/**
 * `createProvider`: one validated provider entry in, one ready {@link ModelProvider} out — the
 * adapter for the entry's wire protocol, behind a credential pool when it has several keys,
 * with retries inside and the configured fallback chain around it.
 */
import { HermesError } from '@hermes/protocol';
import type { AdapterOptions } from './adapters/adapter-options.js';
import { ADAPTERS, type AdapterConstructor, type AdapterRegistry } from './adapters/index.js';
import { type ApiMode, type ApiModeSource, resolveApiMode } from './api-mode.js';
import { CredentialPool } from './credentials/credential-pool.js';
import { JsonFileCredentialStore } from './credentials/json-file-store.js';
import type { CredentialStateStore } from './credentials/pool-state.js';
import type { PoolStrategy } from './credentials/strategies.js';
import {
  type FallbackActivation,
  FallbackProvider,
  type FallbackTarget,
} from './fallback/fallback-provider.js';
import type { ModelProvider } from './model-provider.js';
import type { ModelLimitOverrides } from './models/model-limits.js';
import { PooledProvider } from './pooled-provider.js';
import {
  fallbackEntryConfig,
  type KeySource,
  type ProviderConfig,
  type ProviderConfigInput,
  type ProviderKeys,
  parseProviderConfig,
  resolveBaseUrl,
  resolveProviderKeys,
} from './provider-config.js';
import {
  DEFAULT_BACKOFF_BASE_MS,
  DEFAULT_BACKOFF_MAX_MS,
  DEFAULT_MAX_ATTEMPTS,
  type RetryInfo,
  type Sleep,
} from './retry.js';
import { RetryingMember, type RetryPolicy } from './retrying-member.js';

/** What `createProvider` takes from its host instead of reaching for globals. */
export interface CreateProviderDeps {
  /** Where keys and `HERMES_HOME` (the pool's state file) are read. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Adapter constructors by API mode, replacing the built-in ones (tests, plugins). */
  readonly adapters?: Partial<AdapterRegistry>;
  /** The `fetch` every adapter uses. Default: the global one. */
  readonly fetch?: typeof fetch;
  /** Where pools keep key health. Default: the JSON file under `env.HERMES_HOME`. */
  readonly credentialStore?: CredentialStateStore;
  /** The pools' clock, epoch ms (cooldowns). Default `Date.now`. */
  readonly now?: () => number;
  /** How retries wait; inject a no-wait sleep in tests. Default: a real timer. */
  readonly sleep?: Sleep;
  /** The backoff's jitter source, in [0, 1). Default `Math.random`. */
  readonly random?: () => number;
  /** Told each time a fallback takes over; map it to the `fallback_activated` event. */
  readonly onFallback?: (activation: FallbackActivation) => void;
  /** Told before each retry, with the member being retried. */
  readonly onRetry?: (info: RetryInfo & { readonly target: FallbackTarget }) => void;
}

/** A secret-free summary of what `createProvider` built, for `hermes doctor` and logs. */
export interface ProviderDescription {
  /** The configured provider name. */
  readonly provider: string;
  readonly model: string;
  readonly apiMode: ApiMode;
  /** How the mode was decided. */
  readonly apiModeSource: ApiModeSource;
  /** The adapter's name (`openai-chat`, …). */
  readonly adapter: string;
  /** The endpoint, when not the adapter's default. */
  readonly baseUrl?: string;
  /** How many keys, from where, and whether they form a pool. Never a key. */
  readonly keys: {
    readonly count: number;
    readonly source: KeySource;
    /** The variables read, for env sources. */
    readonly variables?: readonly string[];
    /** The pool's strategy, when the keys form a pool. */
    readonly poolStrategy?: PoolStrategy;
  };
  /** The retry settings in effect. */
  readonly retry: { readonly maxAttempts: number; readonly baseMs: number; readonly maxMs: number };
  /** The fallback chain, in order. */
  readonly fallback: readonly FallbackTarget[];
}

/** What `createProvider` returns. */
export interface CreatedProvider {
  /** The provider to call: retries inside, fallback chain around. */
  readonly provider: ModelProvider;
  /** The model to put in every request. */
  readonly model: string;
  /** The primary's wire protocol. */
  readonly apiMode: ApiMode;
  /** Starts a turn: the primary answers again and one fallback switch is allowed. */
  beginTurn(): void;
  /** A secret-free summary of what was built. */
  describe(): ProviderDescription;
}

interface BuiltMember {
  readonly provider: ModelProvider;
  readonly mode: ApiMode;
  readonly modeSource: ApiModeSource;
  readonly adapter: string;
  readonly baseUrl: string | undefined;
  readonly keys: ProviderKeys;
  readonly pooled: boolean;
}

/**
 * Builds the provider an entry describes:
 * 1. validates `config` (`parseProviderConfig`; a `ValidationError` names every bad field);
 * 2. resolves the wire protocol (`resolveApiMode`: explicit → provider name → base URL → Chat
 *    Completions) and picks its adapter from the registry;
 * 3. finds the keys — `apiKey`, `apiKeyEnv`, `credentials`, or the provider's default variable —
 *    and throws `provider.missing_api_key`, naming the variable to set, when there are none;
 * 4. builds the adapter, or a {@link PooledProvider} when there are several keys or explicit
 *    `credentials` (pool state in `HERMES_HOME`, keys matched by fingerprint, never stored);
 * 5. wraps it in a {@link FallbackProvider} whose members are built the same way on first need,
 *    each member retrying its transient failures (`callWithRetry` with the entry's `retry`
 *    settings; see {@link RetryingMember}). With no `fallback` entries the chain is empty and
 *    the wrapper only retries.
 * Nothing is sent until the first call.
 */
export function createProvider(
  config: ProviderConfigInput,
  deps: CreateProviderDeps = {},
): CreatedProvider {
  const parsed = parseProviderConfig(config);
  const env = deps.env ?? process.env;
  const primary = buildMember(parsed, deps, env);
  const chain = parsed.fallback ?? [];
  const policy = retryPolicy(parsed, deps);
  const fallback = new FallbackProvider({
    primary: new RetryingMember(primary.provider, parsed.provider, policy),
    primaryName: parsed.provider,
    chain,
    createProvider: (entry) => {
      const member = buildMember(fallbackEntryConfig(parsed, entry), deps, env).provider;
      return new RetryingMember(member, entry.provider, policy);
    },
    ...(deps.onFallback === undefined ? {} : { onFallback: deps.onFallback }),
    ...(chain.length === 0 ? { name: parsed.provider } : {}),
  });
  return {
    provider: fallback,
    model: parsed.model,
    apiMode: primary.mode,
    beginTurn: () => fallback.beginTurn(),
    describe: () => describeMember(parsed, primary),
  };
}

/** The adapter (or pool of adapters) for one entry, without retries or fallback. */
function buildMember(config: ProviderConfig, deps: CreateProviderDeps, env: Env): BuiltMember {
  const hints = {
    provider: config.provider,
    ...(config.apiMode === undefined ? {} : { apiMode: config.apiMode }),
    ...(config.baseUrl === undefined ? {} : { baseUrl: config.baseUrl }),
  };
  const { mode, source: modeSource } = resolveApiMode(hints);
  const Adapter = adapterClass(mode, deps);
  const baseUrl = resolveBaseUrl(config, mode);
  const keys = resolveProviderKeys(config, env, { keyOptional: KEY_OPTIONAL_MODES.has(mode) });
  const options = (apiKey: string): AdapterOptions =>
    adapterOptions(config, apiKey, baseUrl, deps.fetch);
  const pooled = keys.source === 'credentials' || keys.keys.length > 1;
  const single = keys.keys[0];
  const provider =
    keys.keys.length === 0
      ? new Adapter(options(''))
      : !pooled && single !== undefined
        ? new Adapter(options(single.apiKey))
        : new PooledProvider({
            pool: new CredentialPool({
              provider: config.provider,
              credentials: keys.keys,
              ...(config.poolStrategy === undefined ? {} : { strategy: config.poolStrategy }),
              store: deps.credentialStore ?? new JsonFileCredentialStore({ env }),
              ...(deps.now === undefined ? {} : { now: deps.now }),
            }),
            createAdapter: (apiKey) => new Adapter(options(apiKey)),
          });
  return { provider, mode, modeSource, adapter: provider.name, baseUrl, keys, pooled };
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Modes whose adapter needs no key: given none (an empty `apiKey`), Bedrock signs with the AWS
 * SDK's default credential chain and its region from `AWS_REGION` / `AWS_DEFAULT_REGION`.
 */
const KEY_OPTIONAL_MODES: ReadonlySet<ApiMode> = new Set(['bedrock_converse']);

function adapterClass(mode: ApiMode, deps: CreateProviderDeps): AdapterConstructor {
  const Adapter = deps.adapters?.[mode] ?? ADAPTERS[mode];
  if (Adapter === undefined) {
    throw new HermesError('provider.no_adapter', `No adapter is registered for api mode ${mode}.`);
  }
  return Adapter;
}

function adapterOptions(
  config: ProviderConfig,
  apiKey: string,
  baseUrl: string | undefined,
  fetchImpl: typeof fetch | undefined,
): AdapterOptions {
  return {
    apiKey,
    providerName: config.provider,
    ...(baseUrl === undefined ? {} : { baseUrl }),
    ...(config.staleTimeoutMs === undefined ? {} : { staleTimeoutMs: config.staleTimeoutMs }),
    ...(config.headers === undefined ? {} : { defaultHeaders: config.headers }),
    ...(config.modelLimits === undefined
      ? {}
      : { modelLimitOverrides: definedLimits(config.modelLimits) }),
    ...(fetchImpl === undefined ? {} : { fetch: fetchImpl }),
  };
}

/** The overrides without absent fields, as `AdapterOptions` types them. */
function definedLimits(
  overrides: ModelLimitOverrides,
): NonNullable<AdapterOptions['modelLimitOverrides']> {
  return Object.fromEntries(
    Object.entries(overrides).map(([model, { contextWindow, maxOutputTokens }]) => [
      model,
      {
        ...(contextWindow === undefined ? {} : { contextWindow }),
        ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
      },
    ]),
  );
}

function retrySettings(config: ProviderConfig) {
  return {
    maxAttempts: config.retry?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    baseMs: config.retry?.baseMs ?? DEFAULT_BACKOFF_BASE_MS,
    maxMs: config.retry?.maxMs ?? DEFAULT_BACKOFF_MAX_MS,
  };
}

/** How {@link RetryingMember} retries, from the entry's settings and the host's deps. */
function retryPolicy(config: ProviderConfig, deps: CreateProviderDeps): RetryPolicy {
  return {
    ...retrySettings(config),
    retryAfterVisibleText: config.retry?.retryAfterVisibleText ?? false,
    ...(deps.sleep === undefined ? {} : { sleep: deps.sleep }),
    ...(deps.random === undefined ? {} : { random: deps.random }),
    ...(deps.onRetry === undefined ? {} : { onRetry: deps.onRetry }),
  };
}

function describeMember(config: ProviderConfig, member: BuiltMember): ProviderDescription {
  return {
    provider: config.provider,
    model: config.model,
    apiMode: member.mode,
    apiModeSource: member.modeSource,
    adapter: member.adapter,
    ...(member.baseUrl === undefined ? {} : { baseUrl: member.baseUrl }),
    keys: {
      count: member.keys.keys.length,
      source: member.keys.source,
      ...(member.keys.variables === undefined ? {} : { variables: member.keys.variables }),
      ...(member.pooled ? { poolStrategy: config.poolStrategy ?? 'fill_first' } : {}),
    },
    retry: retrySettings(config),
    fallback: (config.fallback ?? []).map(({ provider, model }) => ({ provider, model })),
  };
}
