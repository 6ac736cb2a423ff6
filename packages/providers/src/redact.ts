/**
 * Masking credentials in free text and recorded headers, so that no error message, event or log
 * line a provider produces can leak an API key. Every pattern is linear: candidates start only
 * at a fixed prefix or keyword and are matched with bounded, non-nested quantifiers, so a
 * megabyte of hostile input costs one pass per pattern, never a backtracking blow-up.
 */

import { SECRET_TOKEN_PATTERNS } from '@hermes/protocol';

/** What replaces a secret too short to show any of it. */
export const REDACTED = '[REDACTED]';

/** Secrets shorter than this are replaced by {@link REDACTED}; longer ones keep a hint. */
const MIN_HINT_LENGTH = 20;

/** Configured secrets shorter than this are ignored: masking them would shred ordinary words. */
const MIN_EXTRA_SECRET_LENGTH = 6;

/**
 * `sk-proj-abcd…wxyz` → `sk-…wxyz`: a recognizable prefix (3–4 characters) and the last four, so
 * a person can tell which key failed without the key being recoverable.
 */
export function maskSecret(secret: string): string {
  if (secret.length < MIN_HINT_LENGTH) return REDACTED;
  const head = secret.startsWith('sk-') ? 'sk-' : secret.slice(0, 4);
  return `${head}…${secret.slice(-4)}`;
}

/** `Bearer <token>` anywhere, and `Basic <token>` after an authorization header name. */
const SCHEME_PATTERN =
  /\b(Bearer\s+|authorization["']?\s*[:=]\s*["']?Basic\s+)([A-Za-z0-9._~+/-]+=*)/gi;

/** Header-style `x-api-key: value` (and friends) whatever the value looks like. */
const HEADER_PATTERN =
  /(?<![A-Za-z0-9-])((?:x-api-key|x-goog-api-key|api-key|ocp-apim-subscription-key)["']?\s*[:=]\s*["']?)([^\s"',;&)}\]]+)/gi;

/**
 * `api_key=…`, `"apiKey":"…"`, `OPENAI_API_KEY=…`, `password: …`, `token=…`, `secret: …`. Keys
 * that name a credential outright mask any value; generic words (`token`, `secret`, `key`) mask
 * only long hex/base64-looking values, so "token: usage" stays readable.
 */
const KEY_VALUE_PATTERN =
  /(?<![A-Za-z0-9])(api[-_]?key|apikey|access[-_]?key[-_]?id|secret[-_]?access[-_]?key|client[-_]?secret|access[-_]?token|refresh[-_]?token|auth[-_]?token|id[-_]?token|session[-_]?token|private[-_]?key|secret[-_]?key|password|passwd|secret|token|key)(?![A-Za-z0-9])(["']?\s*[:=]\s*["']?)([A-Za-z0-9+/=_.~-]{6,})/gi;

/** Keyword names that are credentials by definition. */
const EXPLICIT_KEY_NAME = /api|apikey|access|client|refresh|auth|session|private|password|passwd/i;

/** A generic-word value must look like a machine token: long, with letters and digits. */
function looksLikeToken(value: string): boolean {
  return value.length >= 16 && /[0-9]/.test(value) && /[A-Za-z]/.test(value);
}

function redactKeyValue(match: string, name: string, sep: string, value: string): string {
  const explicit = EXPLICIT_KEY_NAME.test(name) || /secret[-_]?key/i.test(name);
  if (!explicit && !looksLikeToken(value)) return match;
  return `${name}${sep}${maskSecret(value)}`;
}

function redactScheme(match: string, prefix: string, token: string): string {
  // "Bearer authentication" is prose, not a credential: require a machine-looking token.
  if (token.length < 8 || (!/[0-9]/.test(token) && token.length < 24)) return match;
  return `${prefix}${maskSecret(token)}`;
}

function escapeLiteral(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Replaces every exact occurrence of a configured secret, longest first. */
function redactExact(text: string, secrets: readonly string[]): string {
  const usable = secrets
    .filter((s) => s.length >= MIN_EXTRA_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
  if (usable.length === 0) return text;
  // One alternation of literals: a single linear pass whatever the number of secrets.
  const pattern = new RegExp(usable.map(escapeLiteral).join('|'), 'g');
  return text.replace(pattern, (secret) => maskSecret(secret));
}

/**
 * Masks API keys and bearer tokens in `text`: `sk-…` keys (OpenAI, `sk-proj-`, Anthropic
 * `sk-ant-`, OpenRouter), `Bearer <token>`, `x-api-key: …`, `api_key=…` / `"apiKey":"…"`, the
 * other shapes of `SECRET_TOKEN_PATTERNS` (GitHub, GitLab, Slack, Stripe, AWS access key ids,
 * Google keys, JWTs, PEM private keys), long hex/base64 values after `key` / `token` / `secret`, and every exact
 * string in `extraSecrets` (the configured keys; ones shorter than 6 characters are ignored).
 * A secret keeps a short hint (`sk-…wxyz`) when it is long enough, else becomes `[REDACTED]`.
 */
export function redactSecrets(text: string, extraSecrets: readonly string[] = []): string {
  let out = redactExact(text, extraSecrets);
  out = out.replace(SCHEME_PATTERN, redactScheme);
  out = out.replace(HEADER_PATTERN, (match, prefix: string, value: string) =>
    // Already masked (a hint or `[REDACTED]`): leave it, so redaction is idempotent.
    value.includes('…') || value.startsWith('[') ? match : `${prefix}${maskSecret(value)}`,
  );
  out = out.replace(KEY_VALUE_PATTERN, redactKeyValue);
  // The repository's shared shapes (sk-, GitHub, Slack, Stripe, AWS, Google, JWTs, PEM keys).
  for (const pattern of SECRET_TOKEN_PATTERNS) {
    out = out.replace(pattern, (secret) => maskSecret(secret));
  }
  return out;
}

/** Header names whose whole value is a credential. */
const SECRET_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'api-key',
  'x-goog-api-key',
  'ocp-apim-subscription-key',
  'cookie',
  'set-cookie',
]);

/** Headers as the SDKs, fetch and node:http hand them over. */
export type HeaderSource =
  | Headers
  | Iterable<readonly [string, string]>
  | Readonly<Record<string, string | readonly string[] | number | undefined>>;

function headerEntries(headers: HeaderSource): Array<[string, string]> {
  if (typeof Headers !== 'undefined' && headers instanceof Headers) return [...headers.entries()];
  if (Symbol.iterator in headers) {
    return [...(headers as Iterable<readonly [string, string]>)].map(([k, v]) => [k, v]);
  }
  const out: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out.push([name, Array.isArray(value) ? value.join(', ') : String(value)]);
  }
  return out;
}

function redactHeaderValue(name: string, value: string, extra: readonly string[]): string {
  if (!SECRET_HEADERS.has(name)) return redactSecrets(value, extra);
  // Keep the auth scheme ("Bearer sk-…wxyz") so a recorded request still says how it authed.
  const scheme = /^(Bearer|Basic|Token)\s+(\S+)$/i.exec(value.trim());
  if (scheme?.[1] !== undefined && scheme[2] !== undefined) {
    return `${scheme[1]} ${maskSecret(scheme[2])}`;
  }
  return maskSecret(value.trim());
}

/**
 * A copy of `headers` safe to record: names lower-cased, credential headers (`authorization`,
 * `x-api-key`, `cookie`, …) masked whole, every other value passed through {@link redactSecrets}.
 */
export function redactHeaders(
  headers: HeaderSource,
  extraSecrets: readonly string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [rawName, value] of headerEntries(headers)) {
    const name = rawName.toLowerCase();
    out[name] = redactHeaderValue(name, value, extraSecrets);
  }
  return out;
}
