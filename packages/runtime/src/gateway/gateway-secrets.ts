/**
 * The values the gateway's log must never show: every configured credential. The logger masks
 * the recognized key formats by itself; these exact strings cover the rest (a bearer key or an
 * HMAC secret has no recognizable prefix).
 */
import type { HermesConfig } from '../config/hermes-config.js';
import { isSecretConfigPath, isSecretEnvName } from '../config/secrets.js';

/** Shorter strings are not masked: they would blank out ordinary words of a log line. */
const MIN_SECRET_LENGTH = 6;

/** Credential-named keys of the provider entry (`apiKey`, `api_key`, `token`, …). */
const PROVIDER_SECRET_KEY = /^(?:api_?key|apikey|token|secret|password|access_?token)$/i;

function collect(value: unknown, path: readonly (string | number)[], out: Set<string>): void {
  if (typeof value === 'string') {
    if (isSecretConfigPath(path)) out.add(value);
    return;
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) collect(item, [...path, index], out);
    return;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) collect(item, [...path, key], out);
  }
}

function collectProvider(value: unknown, out: Set<string>, depth = 0): void {
  if (depth > 6 || value === null || typeof value !== 'object') return;
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'string' && PROVIDER_SECRET_KEY.test(key)) out.add(item);
    else collectProvider(item, out, depth + 1);
  }
}

/**
 * Every credential `config` carries: the secret keys of each `platforms.<name>` entry (the API
 * server's bearer key, webhook secrets), the provider's keys (fallbacks and pools included), and
 * the value of every secret-named variable of the environment it was resolved against.
 */
export function gatewaySecrets(config: HermesConfig): string[] {
  const out = new Set<string>();
  for (const platform of config.platforms) collect(platform.raw, ['platforms', platform.name], out);
  collectProvider(config.provider, out);
  for (const [name, value] of Object.entries(config.env ?? {})) {
    if (value !== undefined && isSecretEnvName(name)) out.add(value);
  }
  return [...out].filter((secret) => secret.trim().length >= MIN_SECRET_LENGTH);
}
