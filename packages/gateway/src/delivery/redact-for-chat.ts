/**
 * Secret scrubbing for every text the gateway puts in a chat. A chat is read by many people,
 * searched and archived, so a key that reaches it is leaked for good (seed 1.4 ③).
 *
 * The credential shapes are the repository's shared ones (`@hermes/protocol`'s
 * `SECRET_TOKEN_PATTERNS` and friends); this module adds what a chat needs on top (URL query
 * tokens, assignments, secret flags in commands) and, like the summary redactor, keeps no hint
 * of a value: a chat is persisted by the platform. Every pattern starts at a fixed prefix or
 * label (with a look-behind so no start is retried inside a run of token characters) and uses
 * bounded quantifiers, so a megabyte of hostile text costs one linear pass per pattern.
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

/** Longest command shown in an approval request; the rest is cut (with a note). */
export const MAX_COMMAND_CHARS = 2_000;

/** Credentials in a URL query: `?token=…`, `&api_key=…`, `&sig=…`. */
const QUERY_SECRET =
  /([?&](?:access_token|refresh_token|id_token|token|api[_-]?key|apikey|key|secret|password|passwd|sig|signature|auth|code)=)([^&\s#"'<>]{1,1024})/gi;

/** Env-style names that hold a credential (`OPENAI_API_KEY=`, `PASSWORD=`): any value goes. */
const ENV_ASSIGNMENT =
  /(?<![A-Za-z0-9_])([A-Z][A-Z0-9_]{0,63}?(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)["']?\s*[:=]\s*)("[^"\n]{1,1024}"|'[^'\n]{1,1024}'|[^\s"',;\\]{1,1024})/g;

/**
 * `api_key=…`, `"password": "…"`, `X-Api-Key: …`, `token: …` in any case. A value is hidden when
 * it is quoted or looks like a machine token (it has a digit, or is long); an unquoted
 * identifier such as `password = input.value` is code, not a secret, and stays readable.
 */
const LABELED_ASSIGNMENT =
  /(?<![A-Za-z0-9])((?:api[_-]?key|apikey|access[_-]?key|secret|token|password|passwd|passphrase|credentials?|private[_-]?key)["']?\s*[:=]\s*)("[^"\n]{1,1024}"|'[^'\n]{1,1024}'|[^\s"',;\\&]{6,1024})/gi;

/** Whether `value` is already a redaction marker, so redaction stays idempotent. */
function isMarker(value: string): boolean {
  return value.startsWith(REDACTED) || value.slice(1).startsWith(REDACTED);
}

/** Keeps group 1 (the label) and hides group 2 (the value), keeping its quotes. */
function hideValue(match: string, label: string, value: string): string {
  if (isMarker(value)) return match;
  const quote = value[0] === '"' || value[0] === "'" ? value[0] : '';
  return `${label}${quote}${REDACTED}${quote}`;
}

function hideLabeledValue(match: string, label: string, value: string): string {
  const quoted = value[0] === '"' || value[0] === "'";
  const inner = quoted ? value.slice(1, -1) : value;
  if (inner.length < 6) return match;
  if (!quoted && !/[0-9]/.test(inner) && inner.length < 24) return match;
  return hideValue(match, label, value);
}

/** Hides a machine token after `Bearer`; prose ("Bearer authentication") stays. */
function hideBearer(match: string, prefix: string, token: string): string {
  if (!isMachineToken(token) || isMarker(token)) return match;
  return `${prefix}${REDACTED}`;
}

/**
 * `text` with every recognized secret replaced by `[REDACTED]`: vendor API keys (`sk-…`,
 * `sk-ant-…`, `ghp_…`, `AKIA…`, Google, Slack, Stripe, GitLab), JWTs, bearer tokens,
 * `Authorization: Basic …`, `X-Api-Key: …`, `*_KEY=` / `*_TOKEN=` / `PASSWORD=` assignments,
 * private key blocks, URL credentials and `?token=` style query values. Idempotent.
 */
export function redactForChat(text: string): string {
  let out = text;
  for (const pattern of SECRET_TOKEN_PATTERNS) out = out.replace(pattern, REDACTED);
  out = out.replace(BEARER_TOKEN_PATTERN, hideBearer);
  out = out.replace(AUTH_SCHEME_PATTERN, hideValue);
  out = out.replace(URL_PASSWORD_PATTERN, `$1${REDACTED}$2`);
  out = out.replace(QUERY_SECRET, hideValue);
  out = out.replace(USER_OPTION_PATTERN, hideValue);
  out = out.replace(ENV_ASSIGNMENT, hideValue);
  out = out.replace(LABELED_ASSIGNMENT, hideLabeledValue);
  return out;
}

/** In a command any assignment to a secret-sounding name is a credential, whatever its case. */
const COMMAND_ASSIGNMENT =
  /(?<![A-Za-z0-9_])([A-Za-z_][A-Za-z0-9_]{0,63}=)("[^"]{0,1024}"|'[^']{0,1024}'|[^\s;&|]{1,1024})/g;
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|AUTH|CREDENTIAL/i;

/** `--password hunter2`, `--token=…`, `--api-key …`, `--client-secret …`. */
const FLAG_SECRET =
  /((?:^|\s)--?(?:password|passwd|pass|token|api-key|apikey|secret|client-secret|auth-token)(?:=|\s+))("[^"]{0,1024}"|'[^']{0,1024}'|[^\s;&|]{1,1024})/gi;

/**
 * A command as an approval request shows it: {@link redactForChat}, then any assignment to a
 * secret-sounding variable (`api_token=…`, `PGPASSWORD=…`) and secret flags (`--password …`,
 * `--token=…`), and cut to {@link MAX_COMMAND_CHARS} so a huge command cannot flood the chat.
 */
export function redactCommand(command: string): string {
  let out = redactForChat(command);
  out = out.replace(COMMAND_ASSIGNMENT, (match, label: string, value: string) =>
    SECRET_NAME.test(label) ? hideValue(match, label, value) : match,
  );
  out = out.replace(FLAG_SECRET, hideValue);
  if (out.length <= MAX_COMMAND_CHARS) return out;
  return `${out.slice(0, MAX_COMMAND_CHARS)}… (truncated)`;
}
