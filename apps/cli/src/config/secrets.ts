/** Which settings are secrets: they live in `.env`, and are masked wherever they are shown. */
import { maskSecret } from '@hermes/providers';

/** An environment variable name, the form `.env` keys take. */
export const ENV_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Variable names that hold credentials: `*_API_KEY`, `*_TOKEN`, `*_SECRET`, `*PASSWORD`. */
const SECRET_ENV_NAME = /(?:_API_KEY|_TOKEN|_SECRET|_ACCESS_KEY|PASSWORD)(?:_\d+)?$/i;

/** config.yaml keys that would hold a credential if written there. */
const SECRET_CONFIG_KEY = /^(?:api_?key|apikey|token|secret|password|access_token|auth_token)$/i;

/** True for a variable name such as `OPENAI_API_KEY`, `GITHUB_TOKEN` or `OPENAI_API_KEY_2`. */
export function isSecretEnvName(name: string): boolean {
  return SECRET_ENV_NAME.test(name);
}

/** True for a config.yaml key (the last segment of a path) that names a credential. */
export function isSecretConfigKey(key: string): boolean {
  return SECRET_CONFIG_KEY.test(key) || isSecretEnvName(key);
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
