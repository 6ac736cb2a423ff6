/**
 * Secret scrubbing for everything that goes into or comes out of a summary. The summary lives in
 * the conversation for the rest of the session and is re-sent on every request, so a key that
 * leaks into it leaks everywhere.
 */

/** What a secret is replaced with. */
export const REDACTED = '[REDACTED]';

/** Patterns of secrets; each match (or its captured value) becomes {@link REDACTED}. */
const WHOLE_MATCH_PATTERNS: readonly RegExp[] = [
  // PEM private keys, whole block.
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
  // Well-known API key shapes: OpenAI/Anthropic sk-, GitHub, Slack, AWS, Google.
  /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\bAIza[0-9A-Za-z_-]{30,}/g,
];

/** Bearer tokens: keep the word, hide the token. */
const BEARER = /\b(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi;

/** Passwords in URLs: `scheme://user:password@host`. */
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s@/]+(@)/gi;

/** `api_key=…`, `"password": "…"`, `TOKEN: …` style assignments. */
const ASSIGNMENT =
  /(\b[A-Za-z0-9_-]*(?:api[_-]?key|access[_-]?key|secret|token|password|passwd)["']?\s*[:=]\s*["']?)([^\s"',;]{6,})/gi;

/** `text` with every recognized secret replaced by {@link REDACTED}. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const pattern of WHOLE_MATCH_PATTERNS) out = out.replace(pattern, REDACTED);
  out = out.replace(BEARER, `$1${REDACTED}`);
  out = out.replace(URL_PASSWORD, `$1${REDACTED}$2`);
  out = out.replace(ASSIGNMENT, (match, key: string, value: string) =>
    value === REDACTED || value.startsWith('[REDACTED') ? match : `${key}${REDACTED}`,
  );
  return out;
}
