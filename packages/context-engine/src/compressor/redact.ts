/**
 * Secret scrubbing for everything that goes into or comes out of a summary. The summary lives in
 * the conversation for the rest of the session and is re-sent on every request, so a key that
 * leaks into it leaks everywhere.
 *
 * The shapes follow the repository's other redactors (`@hermes/providers` for provider errors,
 * `@hermes/tools` for tool errors) so a secret hidden in one place is hidden in all; unlike
 * them, the summary keeps no hint of the value (no `sk-…wxyz`), because it is persisted. Every
 * pattern starts at a fixed prefix or label and uses bounded, non-nested quantifiers, so a large
 * tool output costs one linear pass per pattern.
 */

/** What a secret is replaced with. */
export const REDACTED = '[REDACTED]';

/** Secrets recognizable on their own, wherever they appear; the whole match is replaced. */
const WHOLE_MATCH_PATTERNS: readonly RegExp[] = [
  // PEM private keys: the whole block, or (cut short by truncation) all the base64 after the
  // header. The body stops at the next `-----`, so many headers without an end stay linear.
  /-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----(?:(?:[^-]|-(?!----))*-----END [A-Z ]{0,40}PRIVATE KEY-----|[A-Za-z0-9+/=\s]*)/g,
  // OpenAI (sk-, sk-proj-), Anthropic (sk-ant-), OpenRouter (sk-or-) and look-alikes.
  /(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{16,}/g,
  // Stripe live and test keys.
  /(?<![A-Za-z0-9])[spr]k_(?:live|test)_[A-Za-z0-9]{16,}/g,
  // Groq, xAI, Hugging Face, GitHub, GitLab tokens.
  /(?<![A-Za-z0-9])(?:gsk_|xai-|hf_|gh[pousr]_|github_pat_|glpat-)[A-Za-z0-9_-]{20,}/g,
  // Slack tokens.
  /(?<![A-Za-z0-9])xox[abposr]-[A-Za-z0-9-]{10,}/g,
  // AWS access key ids.
  /(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Za-z0-9])/g,
  // Google API keys.
  /(?<![A-Za-z0-9])AIza[0-9A-Za-z_-]{30,}/g,
  // JSON Web Tokens: header, payload and the signature after them.
  /(?<![A-Za-z0-9])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}(?:\.[A-Za-z0-9_-]+)?/g,
];

/** Bearer tokens: keep the word, hide the token. */
const BEARER = /\b(Bearer\s+)([A-Za-z0-9._~+/-]+=*)/gi;

/** `Authorization: Basic …` (and `Token`, `Digest`): keep the scheme, hide the credential. */
const AUTH_SCHEME =
  /\b(authorization["']?\s*[:=]\s*["']?(?:Basic|Token|Digest)\s+)([^\s"',;\\]+)/gi;

/**
 * Passwords in URLs: `scheme://user:password@host`. The scheme is bounded: unbounded, a long
 * dashed word would be rescanned from each of its letters.
 */
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]{0,31}:\/\/[^\s:/@]{1,256}:)[^\s@/]{1,256}(@)/gi;

/** `curl -u user:password`, `--user=user:password`. */
const USER_OPTION = /((?:^|\s)(?:-u|--user)(?:\s+|=)["']?[^\s:"']+:)([^\s"']+)/g;

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

/**
 * A bearer token is a machine token, not prose ("Bearer authentication"): it holds a digit or
 * token punctuation (`.`, `_`, `-`, `/`, `+`), or is long.
 */
function redactBearer(match: string, prefix: string, token: string): string {
  const machine = /[0-9._/+-]/.test(token) || token.length >= 24;
  if (token.length < 8 || !machine) return match;
  return `${prefix}${REDACTED}`;
}

/** `text` with every recognized secret replaced by {@link REDACTED}. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const pattern of WHOLE_MATCH_PATTERNS) out = out.replace(pattern, REDACTED);
  out = out.replace(BEARER, redactBearer);
  out = out.replace(AUTH_SCHEME, keepLabel);
  out = out.replace(URL_PASSWORD, `$1${REDACTED}$2`);
  out = out.replace(USER_OPTION, keepLabel);
  out = out.replace(ASSIGNMENT, keepLabel);
  out = out.replace(ENV_KEY, keepLabel);
  return out;
}
