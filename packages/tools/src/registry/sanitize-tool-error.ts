/**
 * Turning a failure into text the model may safely read. An error message is outside data
 * (paths, server replies, argument echoes) on a channel authors rarely think of as input, so it is
 * stripped of anything shaped like a conversation marker before the model sees it.
 */
import { SECRET_TOKEN_PATTERNS } from '@hermes/protocol';

/** Prefix of every sanitized tool error, so the model and the host can tell failures apart. */
export const TOOL_ERROR_PREFIX = '[TOOL_ERROR]';

/** Longest sanitized error body, in characters, before the prefix. */
export const TOOL_ERROR_MAX_CHARS = 2_000;

const ROLE_NAMES = [
  'system',
  'user',
  'assistant',
  'developer',
  'human',
  'ai',
  'tool',
  'tool_call',
  'tool_calls',
  'tool_result',
  'tool_response',
  'tool_use',
  'function',
  'function_call',
  'function_calls',
  'function_result',
  'function_results',
  'invoke',
  'parameter',
  'result',
  'results',
  'instructions',
  'thinking',
  'reasoning',
].join('|');

/** `<system>`, `</user>`, `<tool_call id="x">`, `<invoke>`, … in any case. */
const ROLE_TAG_RE = new RegExp(`<\\s*/?\\s*(?:[a-z]+:)?(?:${ROLE_NAMES})\\b[^>]*>`, 'gi');
/** Chat-template tokens such as `<|im_start|>` or `<|eot_id|>`. */
const TEMPLATE_TOKEN_RE = /<\|[^|>]{1,40}\|>/g;
const FENCE_OPEN_RE = /^\s*```(?:json|xml|html|markdown|md)?[^\S\n]*/gim;
const FENCE_CLOSE_RE = /[^\S\n]*```\s*$/gm;
const CDATA_RE = /<!\[CDATA\[([\s\S]*?)\]\]>/g;

/** Credentials that must never reach the model or a log, even inside an error message. */
const SECRET_PATTERNS: readonly RegExp[] = [
  /\b(sk|pk|rk)-[A-Za-z0-9_-]{16,}/g,
  /\b(ghp|gho|ghu|ghs|github_pat)_[A-Za-z0-9_]{20,}/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{12,}/gi,
  /\b([A-Za-z_]*(?:api[_-]?key|token|secret|password|passwd)[A-Za-z_]*)(\s*[=:]\s*)("?)[^\s"',;]{6,}\3/gi,
];

/** Options for {@link sanitizeToolError}. */
export interface SanitizeToolErrorOptions {
  /** Longest body kept, in characters; default {@link TOOL_ERROR_MAX_CHARS}. */
  readonly maxChars?: number;
}

/** Replaces credential-shaped substrings with `[REDACTED]`. */
export function redactSecrets(text: string): string {
  let out = text;
  // The repository's shared shapes first (PEM keys, Stripe, GitLab, Google, JWTs, …).
  for (const pattern of SECRET_TOKEN_PATTERNS) out = out.replace(pattern, '[REDACTED]');
  for (const pattern of SECRET_PATTERNS) {
    out = out.replace(pattern, (match, ...groups: unknown[]) => {
      // The key=value pattern keeps its key so the reader still knows which setting was wrong.
      const key = groups[0];
      const sep = groups[1];
      if (typeof key === 'string' && typeof sep === 'string' && match.startsWith(key)) {
        return `${key}${sep}[REDACTED]`;
      }
      return '[REDACTED]';
    });
  }
  return out;
}

/** Describes any thrown value as one message string, never `[object Object]`. */
export function describeThrown(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

/**
 * Makes a failure safe to hand the model: CDATA wrappers, role tags, chat-template tokens and
 * code fences are removed (their text stays, their shape goes), credentials are redacted, the
 * body is truncated and the result starts with `[TOOL_ERROR]`.
 *
 * @param error - An `Error`, a message string, or any thrown value.
 */
export function sanitizeToolError(error: unknown, options: SanitizeToolErrorOptions = {}): string {
  const maxChars = options.maxChars ?? TOOL_ERROR_MAX_CHARS;
  let text = describeThrown(error);
  if (text.startsWith(TOOL_ERROR_PREFIX)) text = text.slice(TOOL_ERROR_PREFIX.length);
  text = text
    .replace(CDATA_RE, '$1')
    .replace(ROLE_TAG_RE, '')
    .replace(TEMPLATE_TOKEN_RE, '')
    .replace(FENCE_OPEN_RE, '')
    .replace(FENCE_CLOSE_RE, '');
  text = redactSecrets(text).trim();
  if (text.length > maxChars) {
    text = `${text.slice(0, maxChars)}… [error truncated, ${text.length - maxChars} more characters]`;
  }
  if (text.length === 0) text = 'the tool failed without a message';
  return `${TOOL_ERROR_PREFIX} ${text}`;
}
