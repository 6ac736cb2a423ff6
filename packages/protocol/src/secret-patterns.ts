/**
 * The shapes of credentials every redactor of the repository recognizes: provider errors, tool
 * errors, summaries, chat output. Each redactor decides what replaces a match (a hint such as
 * `sk-…wxyz`, or nothing of it); the shapes live here once, so a key one of them hides is hidden
 * by all. Every pattern starts at a fixed prefix or label, with a look-behind so no start is
 * retried inside a run of token characters, and uses bounded, non-nested quantifiers: a megabyte
 * of hostile text costs one linear pass per pattern. All are global; use them with `replace`.
 */

/** Secrets recognizable on their own, wherever they appear: the whole match is the secret. */
export const SECRET_TOKEN_PATTERNS: readonly RegExp[] = Object.freeze([
  // PEM private keys: the whole block, or (cut short, e.g. truncated or mid-stream) all base64
  // after the header. The body stops at the next `-----`, so many headers without an end stay
  // linear.
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
]);

/** `Bearer <token>`: group 1 the word and its space, group 2 the token. */
export const BEARER_TOKEN_PATTERN = /\b(Bearer\s+)([A-Za-z0-9._~+/-]+=*)/gi;

/**
 * `Authorization: Basic …` (and `Token`, `Digest`): group 1 up to the scheme and its space,
 * group 2 the credential.
 */
export const AUTH_SCHEME_PATTERN =
  /\b(authorization["']?\s*[:=]\s*["']?(?:Basic|Token|Digest)\s+)([^\s"',;\\]+)/gi;

/**
 * `scheme://user:password@host`: group 1 up to the colon, group 2 the `@`; the password is
 * between them. The scheme is bounded so a long dashed word is not rescanned from each letter.
 */
export const URL_PASSWORD_PATTERN =
  /(\b[a-z][a-z0-9+.-]{0,31}:\/\/[^\s:/@]{1,256}:)[^\s@/]{1,256}(@)/gi;

/** `curl -u user:password`, `--user=user:password`: group 1 up to the colon, group 2 the password. */
export const USER_OPTION_PATTERN =
  /((?:^|\s)(?:-u|--user)(?:\s+|=)["']?[^\s:"']{1,256}:)([^\s"']+)/g;

/**
 * Whether a token after `Bearer` is a machine token rather than prose ("Bearer authentication"):
 * at least 8 characters with a digit or token punctuation, or 24 and more.
 */
export function isMachineToken(token: string): boolean {
  if (token.length < 8) return false;
  return /[0-9._/+-]/.test(token) || token.length >= 24;
}
