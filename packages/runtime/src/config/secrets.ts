/** Which settings are secrets: they live in `.env`, and are masked wherever they are shown. */
import { maskSecret } from '@hermes/providers';
import type { KeySegment } from './config-document.js';

/** An environment variable name, the form `.env` keys take. */
export const ENV_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Variable names that hold credentials: `*_KEY` (`OPENAI_API_KEY`, `API_SERVER_KEY`,
 * `*_ACCESS_KEY`), `*_TOKEN`, `*_SECRET`, `*PASSWORD`, each with an optional `_<n>` suffix.
 */
const SECRET_ENV_NAME = /(?:_KEY|_TOKEN|_SECRET|PASSWORD)(?:_\d+)?$/i;

/** config.yaml keys that would hold a credential if written there. */
const SECRET_CONFIG_KEY = /^(?:api_?key|apikey|token|secret|password|access_token|auth_token)$/i;

/** Keys of a `platforms.<name>` entry that hold a credential (`api_server`'s `key`). */
const SECRET_PLATFORM_KEY = /^(?:key|token|secret)$/i;

/** True for a variable name such as `OPENAI_API_KEY`, `GITHUB_TOKEN` or `OPENAI_API_KEY_2`. */
export function isSecretEnvName(name: string): boolean {
  return SECRET_ENV_NAME.test(name);
}

/** True for a config.yaml key (the last segment of a path) that names a credential. */
export function isSecretConfigKey(key: string): boolean {
  return SECRET_CONFIG_KEY.test(key) || isSecretEnvName(key);
}

/**
 * True for a config.yaml key path that holds a credential: a secret-named key anywhere
 * ({@link isSecretConfigKey}), or `key` / `token` / `secret` anywhere under `platforms`
 * (`platforms.api_server.key`, `platforms.webhook.routes.<name>.secret`).
 */
export function isSecretConfigPath(path: readonly KeySegment[]): boolean {
  const last = path.at(-1);
  if (typeof last !== 'string') return false;
  if (isSecretConfigKey(last)) return true;
  return path[0] === 'platforms' && path.length > 2 && SECRET_PLATFORM_KEY.test(last);
}

/**
 * True when `hermes config set <key>` means a `.env` variable: an upper-case variable name
 * (`OPENAI_API_KEY`, `HERMES_MODEL`) rather than a dotted config.yaml path.
 */
export function isEnvKey(key: string): boolean {
  return ENV_KEY.test(key) && key === key.toUpperCase() && /[A-Z]/.test(key);
}

/** How a secret is shown: a short hint (`sk-…wxyz`) or `[REDACTED]`, never the value. */
export function maskValue(value: string): string {
  return maskSecret(value);
}

/**
 * A copy of the config.yaml value found at `path` with every secret inside it masked
 * ({@link isSecretConfigPath} for each key path, strings only), for printing.
 */
export function maskConfigValue(value: unknown, path: readonly KeySegment[]): unknown {
  if (typeof value === 'string') return isSecretConfigPath(path) ? maskValue(value) : value;
  if (Array.isArray(value))
    return value.map((item, index) => maskConfigValue(item, [...path, index]));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, maskConfigValue(item, [...path, key])]),
    );
  }
  return value;
}
