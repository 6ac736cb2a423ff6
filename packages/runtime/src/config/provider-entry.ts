/**
 * Turning the `model` section (plus flags and the environment) into one provider entry that
 * `@hermes/providers`' `createProvider` accepts, or one line saying what is missing.
 */
import {
  type CredentialInput,
  credentialsFromEnv,
  keyVariablesFor,
  type PoolStrategy,
  type ProviderConfigInput,
  ProviderConfigSchema,
  resolveApiMode,
} from '@hermes/providers';
import { type AuthFile, emptyAuthFile, readAuthFile } from '../auth/auth-file.js';
import { authCredentials } from '../auth/auth-keys.js';
import { collectProviderKeys } from '../auth/provider-keys.js';
import type { HermesConfigFile } from './config-schema.js';
import type { ConfigFlags } from './hermes-config.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The key given to a local OpenAI-compatible server that does not check keys. */
export const PLACEHOLDER_API_KEY = 'no-key-required';

/** The model used for a provider when none is configured. */
export const DEFAULT_MODELS: Readonly<Record<string, string>> = {
  openrouter: 'anthropic/claude-sonnet-4.5',
  openai: 'gpt-4o',
  anthropic: 'claude-sonnet-4-5',
  deepseek: 'deepseek-chat',
  groq: 'llama-3.3-70b-versatile',
  xai: 'grok-4',
  mistral: 'mistral-large-latest',
};

/** Providers tried, in order, when none is configured but a key is in the environment. */
const DETECT_ORDER = ['openrouter', 'anthropic', 'openai'] as const;

/** What {@link resolveProviderEntry} found. */
export interface ProviderResolution {
  readonly provider: ProviderConfigInput | undefined;
  /** One line naming what is missing and `hermes setup`, when `provider` is undefined. */
  readonly problem?: string;
  /** The provider name decided on, even when no entry could be built. */
  readonly providerName?: string;
  readonly model?: string;
}

const SETUP_HINT = 'run `hermes setup`, or pass --base-url for a local OpenAI-compatible server';

/** Where keys are read besides the environment. */
export interface ProviderKeyOptions {
  /** The data home whose auth.json (`hermes auth add`) adds keys to the provider's pool. */
  readonly hermesHome?: string;
  /** auth.json already read; wins over `hermesHome`. */
  readonly auth?: AuthFile;
}

function detectProvider(env: Env, auth: AuthFile): string | undefined {
  return DETECT_ORDER.find(
    (name) => credentialsFromEnv(env, name).length > 0 || authCredentials(auth, name).length > 0,
  );
}

/** `credential_pool.<provider>.strategy`, when config.yaml sets it. */
export function configuredPoolStrategy(
  file: HermesConfigFile,
  provider: string,
): PoolStrategy | undefined {
  return file.credential_pool?.[provider]?.strategy;
}

/**
 * The configured fallback chain. A member whose provider has keys in auth.json gets all its
 * keys as its own pool (environment first, as for the primary) and its provider's
 * `credential_pool` strategy; otherwise it reads its variable when it is built, as before.
 */
function fallbackEntries(
  file: HermesConfigFile,
  env: Env,
  auth: AuthFile,
): ProviderConfigInput['fallback'] {
  return (file.model?.fallback ?? []).map((entry) => {
    const variables = entry.api_key_env ? [entry.api_key_env] : keyVariablesFor(entry.provider);
    const keys = collectProviderKeys(env, entry.provider, variables, auth);
    const stored = keys.some((key) => key.source === 'file');
    const strategy = configuredPoolStrategy(file, entry.provider);
    return {
      provider: entry.provider,
      model: entry.model,
      ...(entry.base_url ? { baseUrl: entry.base_url } : {}),
      ...(stored
        ? { credentials: keys, ...(strategy ? { poolStrategy: strategy } : {}) }
        : entry.api_key_env
          ? { apiKeyEnv: entry.api_key_env }
          : {}),
    };
  });
}

/**
 * One environment key as `apiKey`; several keys, any auth.json key, or a configured strategy as
 * a pool (so the key's health is tracked and `hermes auth list` can show it); none as the
 * local-server placeholder.
 */
function keyFields(
  keys: readonly CredentialInput[],
  strategy: PoolStrategy | undefined,
): Partial<ProviderConfigInput> {
  const [first] = keys;
  if (first === undefined) return { apiKey: PLACEHOLDER_API_KEY };
  const managed = strategy !== undefined || keys.some((key) => key.source === 'file');
  if (keys.length === 1 && !managed) return { apiKey: first.apiKey };
  return { credentials: [...keys], ...(strategy === undefined ? {} : { poolStrategy: strategy }) };
}

function fallbackField(
  file: HermesConfigFile,
  env: Env,
  auth: AuthFile,
): Partial<ProviderConfigInput> {
  const fallback = fallbackEntries(file, env, auth);
  return fallback && fallback.length > 0 ? { fallback } : {};
}

/** What `createProvider` would reject in the entry (a bad --base-url), as one line. */
function entryProblem(entry: ProviderConfigInput): string | undefined {
  const checked = ProviderConfigSchema.safeParse(entry);
  if (checked.success) return undefined;
  const issue = checked.error.issues[0];
  const where = issue?.path.join('.') ?? 'provider';
  return `The provider settings are invalid (${where}: ${issue?.message}): fix them or run \`hermes setup\`.`;
}

/**
 * Precedence: flags, then config.yaml (`model.provider`, `model.default`, `model.base_url`), then
 * the environment (`HERMES_PROVIDER`, `HERMES_MODEL`, `HERMES_BASE_URL`, which `.env` may set),
 * then defaults (the provider whose key is present; {@link DEFAULT_MODELS}). Keys are read from
 * `env` (`model.api_key_env`, else the provider's default variable such as `OPENAI_API_KEY`, with
 * its numbered variants), then from auth.json (`options.hermesHome`), and put into the entry:
 * one environment key as `apiKey`, otherwise a credential pool with the strategy
 * `credential_pool.<provider>.strategy` names. A `base_url` without a key gets
 * {@link PLACEHOLDER_API_KEY}, for local servers.
 *
 * @throws HermesError `auth.invalid_file` when auth.json cannot be read.
 */
export function resolveProviderEntry(
  file: HermesConfigFile,
  flags: ConfigFlags,
  env: Env,
  options: ProviderKeyOptions = {},
): ProviderResolution {
  const auth =
    options.auth ??
    (options.hermesHome === undefined ? emptyAuthFile() : readAuthFile(options.hermesHome));
  const section = file.model ?? {};
  // Settings tied to the configured provider do not follow a different --provider.
  const sameProvider = flags.provider === undefined || flags.provider === section.provider;
  const baseUrl =
    flags.baseUrl ?? (sameProvider ? section.base_url : undefined) ?? env.HERMES_BASE_URL;
  const providerName =
    flags.provider ??
    section.provider ??
    env.HERMES_PROVIDER ??
    (baseUrl ? 'custom' : detectProvider(env, auth));
  if (providerName === undefined) {
    return { provider: undefined, problem: `No model provider is configured: ${SETUP_HINT}.` };
  }
  const model =
    flags.model ??
    (sameProvider ? section.default : undefined) ??
    env.HERMES_MODEL ??
    DEFAULT_MODELS[providerName.toLowerCase()];
  if (model === undefined) {
    return {
      provider: undefined,
      providerName,
      problem: `No model is configured for ${providerName}: run \`hermes setup\`, or pass --model <name>.`,
    };
  }
  const keyEnv = sameProvider ? section.api_key_env : undefined;
  const variables = keyEnv ? [keyEnv] : keyVariablesFor(providerName);
  const keys = collectProviderKeys(env, providerName, variables, auth);
  const apiMode = section.api_mode && sameProvider ? section.api_mode : undefined;
  // Bedrock signs with the AWS SDK's default credential chain when it has no Bedrock API key.
  const awsChain =
    keys.length === 0 &&
    resolveApiMode({
      provider: providerName,
      ...(apiMode ? { apiMode } : {}),
      ...(baseUrl ? { baseUrl } : {}),
    }).mode === 'bedrock_converse';
  if (keys.length === 0 && baseUrl === undefined && !awsChain) {
    return {
      provider: undefined,
      providerName,
      model,
      problem:
        `No API key for ${providerName} (set ${variables.join(' or ')}): ${SETUP_HINT}; ` +
        `or store one with \`hermes auth add ${providerName}\`.`,
    };
  }
  const entry: ProviderConfigInput = {
    provider: providerName,
    model,
    ...(baseUrl ? { baseUrl } : {}),
    ...(apiMode ? { apiMode } : {}),
    ...(awsChain ? {} : keyFields(keys, configuredPoolStrategy(file, providerName))),
    ...fallbackField(file, env, auth),
  };
  const problem = entryProblem(entry);
  if (problem) return { provider: undefined, providerName, model, problem };
  return { provider: entry, providerName, model };
}
