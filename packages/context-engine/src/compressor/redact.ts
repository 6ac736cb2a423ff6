/**
 * Secret scrubbing for everything that goes into or comes out of a summary. The summary lives in
 * the conversation for the rest of the session and is re-sent on every request, so a key that
 * leaks into it leaks everywhere.
 *
 * The credential shapes are the repository's shared ones (`@hermes/protocol`'s
 * `SECRET_TOKEN_PATTERNS` and friends), so a secret hidden in one place is hidden in all; unlike
 * the provider errors' redactor, the summary keeps no hint of the value (no `sk-…wxyz`), because
 * it is persisted. Every pattern starts at a fixed prefix or label and uses bounded, non-nested
 * quantifiers, so a large tool output costs one linear pass per pattern.
 */

import {
  AUTH_SCHEME_PATTERN,
  BEARER_TOKEN_PATTERN,
  isMachineToken,
  SECRET_TOKEN_PATTERNS,
  URL_PASSWORD_PATTERN,
  USER_OPTION_PATTERN,
} from '@hermes/protocol';

/** What a secret is replaced with. */
export const REDACTED = '[REDACTED]';

/**
 * `api_key=…`, `"password": "…"`, `X-Api-Key: …`, `DATADOG_API_KEY=…`, `?token=…` style
 * assignments. The match starts at the credential word itself (what precedes it, such as
 * `DATADOG_`, stays as it is), so no pattern scans back over a long identifier.
 */
const ASSIGNMENT =
  /((?:api[_-]?key|apikey|access[_-]?key|secret|token|password|passwd|passphrase|credentials?|signature|private[_-]?key)["']?\s*[:=]\s*["']?)([^\s"',;\\]{6,})/gi;

/** Environment-style `SOMETHING_KEY=…` (`STRIPE_KEY`, `DATADOG_APP_KEY`). */
const ENV_KEY = /(\b[A-Z][A-Z0-9_]*_KEY["']?\s*[:=]\s*["']?)([^\s"',;\\]{6,})/g;

/** Whether `value` is already a redaction marker (so redaction stays idempotent). */
function isMarker(value: string): boolean {
  return value.startsWith('[REDACTED');
}

/** Keeps group 1 (the label) and hides group 2 (the value). */
function keepLabel(match: string, label: string, value: string): string {
  return isMarker(value) ? match : `${label}${REDACTED}`;
}

/** Hides a machine token after `Bearer`; prose ("Bearer authentication") stays. */
function redactBearer(match: string, prefix: string, token: string): string {
  return isMachineToken(token) ? `${prefix}${REDACTED}` : match;
}

/** `text` with every recognized secret replaced by {@link REDACTED}. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const pattern of SECRET_TOKEN_PATTERNS) out = out.replace(pattern, REDACTED);
  out = out.replace(BEARER_TOKEN_PATTERN, redactBearer);
  out = out.replace(AUTH_SCHEME_PATTERN, keepLabel);
  out = out.replace(URL_PASSWORD_PATTERN, `$1${REDACTED}$2`);
  out = out.replace(USER_OPTION_PATTERN, keepLabel);
  out = out.replace(ASSIGNMENT, keepLabel);
  out = out.replace(ENV_KEY, keepLabel);
  return out;
}
