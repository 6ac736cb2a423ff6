/**
 * What `hermes auth list` shows: per provider, each key as the pool holds it (masked), where it
 * came from, and its saved health. Secret-free by construction: a report carries a mask and a
 * fingerprint, never the key.
 */
import {
  type CredentialInput,
  type CredentialSource,
  fingerprintKey,
  keyVariablesFor,
  type PersistedCredential,
  type PoolStrategy,
} from '@hermes/providers';
import type { HermesConfigFile } from '../config/config-schema.js';
import { configuredPoolStrategy, DEFAULT_MODELS } from '../config/provider-entry.js';
import type { AuthFile } from './auth-file.js';
import { authProviders } from './auth-keys.js';
import { poolHealthByFingerprint, poolStatePath } from './pool-health.js';
import { collectProviderKeys } from './provider-keys.js';

type Env = Readonly<Record<string, string | undefined>>;

/** A key's state: usable, benched for `cooldownMs` more, or revoked until `hermes auth reset`. */
export type KeyState =
  | { readonly kind: 'ok' }
  | { readonly kind: 'cooling'; readonly cooldownMs: number }
  | { readonly kind: 'dead' };

/** One key of a provider, as listed. */
export interface KeyReportLine {
  /** 1-based position in the pool's priority order: what `hermes auth remove` takes. */
  readonly index: number;
  readonly label: string;
  /** `sk-…abcd`: at most the last four characters of the key. */
  readonly masked: string;
  readonly fingerprint: string;
  /** `env:OPENAI_API_KEY`, `auth.json` or `config`. */
  readonly source: string;
  readonly state: KeyState;
  /** Leases the pool handed out for this key, when the pool has saved any. */
  readonly requests?: number;
  /** The classified reason of the failure that last benched it (`rate_limit`, `auth`, …). */
  readonly lastError?: string;
}

/** One provider's keys. */
export interface ProviderKeyReport {
  readonly provider: string;
  /** `credential_pool.<provider>.strategy`, or the pool's default. */
  readonly strategy: PoolStrategy;
  /** The environment variables read for it, for "how to add one" hints. */
  readonly variables: readonly string[];
  readonly keys: readonly KeyReportLine[];
}

/** What {@link reportProviderKeys} reads. */
export interface KeyReportInput {
  readonly hermesHome: string;
  /** The environment with `.env` merged in. */
  readonly env: Env;
  /** config.yaml, validated; undefined when it is absent or broken. */
  readonly config: HermesConfigFile | undefined;
  readonly auth: AuthFile;
  /** The pools' health file. Default {@link poolStatePath} of `hermesHome`. */
  readonly poolStatePath?: string;
  /** Only this provider (listed even without keys); default: every provider with keys. */
  readonly provider?: string;
  /** The clock for cooldowns, epoch ms. Default `Date.now`. */
  readonly now?: number;
}

/** Providers whose keys are looked for even when nothing names them (their variables are known). */
const WELL_KNOWN = [...Object.keys(DEFAULT_MODELS), 'gemini'];

/** Each provider's keys, configured provider first, then in name order. */
export function reportProviderKeys(input: KeyReportInput): ProviderKeyReport[] {
  const now = input.now ?? Date.now();
  const names = input.provider === undefined ? candidateProviders(input) : [input.provider];
  const reports = names.map((provider) => reportOne(input, provider, now));
  return input.provider === undefined ? reports.filter((r) => r.keys.length > 0) : reports;
}

/** The keys of `provider` the provider entry would use, in the same order. */
export function providerKeyInputs(
  input: Pick<KeyReportInput, 'env' | 'config' | 'auth'>,
  provider: string,
): { keys: CredentialInput[]; variables: readonly string[] } {
  const model = input.config?.model;
  const keyEnv = model?.provider === provider ? model.api_key_env : undefined;
  const variables = keyEnv ? [keyEnv] : keyVariablesFor(provider);
  return { keys: collectProviderKeys(input.env, provider, variables, input.auth), variables };
}

function reportOne(input: KeyReportInput, provider: string, now: number): ProviderKeyReport {
  const { keys, variables } = providerKeyInputs(input, provider);
  const statePath = input.poolStatePath ?? poolStatePath(input.hermesHome);
  const health = poolHealthByFingerprint(statePath, provider);
  const strategy =
    (input.config ? configuredPoolStrategy(input.config, provider) : undefined) ?? 'fill_first';
  return {
    provider,
    strategy,
    variables,
    keys: keys.map((key, position) => describeKey(key, position, health, now)),
  };
}

function describeKey(
  key: CredentialInput,
  position: number,
  health: ReadonlyMap<string, PersistedCredential>,
  now: number,
): KeyReportLine {
  const fingerprint = fingerprintKey(key.apiKey.trim());
  const saved = health.get(fingerprint);
  return {
    index: position + 1,
    label: key.label ?? fingerprint,
    masked: maskKey(key.apiKey),
    fingerprint,
    source: displaySource(key.source ?? 'config'),
    state: stateOf(saved, now),
    ...(saved === undefined ? {} : { requests: saved.useCount }),
    ...(saved?.lastErrorReason === undefined ? {} : { lastError: saved.lastErrorReason }),
  };
}

function stateOf(saved: PersistedCredential | undefined, now: number): KeyState {
  if (saved?.status === 'dead') return { kind: 'dead' };
  if (saved?.status === 'exhausted' && (saved.cooldownUntil ?? 0) > now) {
    return { kind: 'cooling', cooldownMs: (saved.cooldownUntil ?? now) - now };
  }
  return { kind: 'ok' };
}

function displaySource(source: CredentialSource): string {
  return source === 'file' ? 'auth.json' : source;
}

function candidateProviders(input: KeyReportInput): string[] {
  const configured = input.config?.model?.provider;
  const rest = new Set([
    ...authProviders(input.auth),
    ...Object.keys(input.config?.credential_pool ?? {}),
    ...WELL_KNOWN,
  ]);
  if (configured !== undefined) rest.delete(configured);
  return [...(configured === undefined ? [] : [configured]), ...[...rest].sort()];
}

/**
 * `sk-…abcd`: a leading `sk-` (a vendor marker, not secret) and the last four characters; keys
 * under 12 characters show no characters at all, since four would be a third of the key.
 */
export function maskKey(apiKey: string): string {
  const key = apiKey.trim();
  if (key.length < 12) return '…';
  return `${key.startsWith('sk-') ? 'sk-' : ''}…${key.slice(-4)}`;
}

/** `4m12s`, `1h03m`, `9s`: a cooldown's time left, rounded up to the second. */
export function formatTimeLeft(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) return `${h}h${String(m).padStart(2, '0')}m`;
  return m > 0 ? `${m}m${String(s).padStart(2, '0')}s` : `${s}s`;
}
