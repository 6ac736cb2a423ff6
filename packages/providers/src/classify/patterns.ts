/**
 * The phrases and codes the classifier recognizes, gathered from what OpenAI, Anthropic,
 * OpenRouter and the common OpenAI-compatible servers (vLLM, llama.cpp, Ollama) actually send.
 * Phrases are matched against lower-cased text; keep them lower-case and specific.
 */

/** True when `text` contains any of `phrases`. */
export function hasAny(text: string, phrases: readonly string[]): boolean {
  return phrases.some((phrase) => text.includes(phrase));
}

/** The prompt does not fit the model's window. */
export const CONTEXT_PHRASES = [
  'maximum context length',
  'context length',
  // Anthropic: "input length and `max_tokens` exceed context limit: 195000 + 8192 > 200000".
  'context limit',
  'context window',
  'context size',
  'prompt is too long',
  'prompt exceeds max length',
  'too many tokens',
  'reduce the length',
  'maximum number of tokens',
  'max_model_len',
  'maximum model length',
  'input is too long',
  'exceeds the maximum number of input tokens',
  'slot context',
] as const;

/** Per-credential throttling that clears by itself. */
export const RATE_LIMIT_PHRASES = [
  'rate limit',
  'rate_limit',
  'ratelimit',
  'too many requests',
  'throttl',
  'requests per minute',
  'tokens per minute',
  'requests per day',
  'resource_exhausted',
  'resource exhausted',
  'too many concurrent requests',
] as const;

/** The account is out of money — retrying does not help, another key or provider might. */
export const BILLING_PHRASES = [
  'insufficient credits',
  'insufficient_credits',
  'insufficient_quota',
  'insufficient balance',
  'credit balance',
  'credits exhausted',
  'credits have been exhausted',
  'out of credits',
  'no usable credits',
  'top up your credits',
  'payment required',
  'billing hard limit',
  'exceeded your current quota',
  'check your plan and billing',
  'out of funds',
  'balance_depleted',
] as const;

/** Limits that may be billing or a usage window: {@link USAGE_WINDOW_SIGNALS} decides. */
export const USAGE_LIMIT_PHRASES = ['usage limit', 'quota', 'limit exceeded'] as const;

/** Words saying a usage limit is a window that resets, not an empty wallet. */
export const USAGE_WINDOW_SIGNALS = [
  'try again',
  'retry',
  'resets at',
  'reset at',
  'resets in',
  'reset in',
  'wait',
  'window',
  'periodic',
] as const;

/** The service is busy; the credential is fine, so rotating it only burns the pool. */
export const OVERLOADED_PHRASES = ['overloaded', 'at capacity', 'over capacity'] as const;

/** The key was not accepted (may be a typo or an expired token: another key may work). */
export const AUTH_PHRASES = [
  'invalid api key',
  'invalid_api_key',
  'incorrect api key',
  'invalid x-api-key',
  'api key not valid',
  'unauthorized',
  'authentication',
  'invalid token',
  'token expired',
  'expired token',
] as const;

/** The key is known but will never be allowed this (revoked, no permission). */
export const PERMANENT_AUTH_PHRASES = [
  'permission',
  'not allowed',
  'revoked',
  'forbidden',
  'access denied',
] as const;

/** The requested model is not served here. */
export const MODEL_NOT_FOUND_PHRASES = [
  'model not found',
  'model_not_found',
  'does not exist',
  'unknown model',
  'no such model',
  'invalid model',
  'is not a valid model',
  'unsupported model',
] as const;

/** The request body is over the service's byte limit (413 in words). */
export const PAYLOAD_TOO_LARGE_PHRASES = [
  'request entity too large',
  'payload too large',
  'request too large',
  'request_too_large',
  'error code: 413',
  'maximum allowed number of bytes',
] as const;

/** A malformed request some gateways report as 5xx; retrying only repeats the rejection. */
export const REQUEST_VALIDATION_PHRASES = [
  'unknown parameter',
  'unsupported parameter',
  'unrecognized request argument',
] as const;

/** Cloudflare / origin envelopes that hide an oversized prompt behind a 5xx. */
export const GATEWAY_PHRASES = [
  'cloudflare',
  'origin_bad_gateway',
  'invalid or incomplete response',
] as const;

/** A timeout described in words by a shim or proxy that lost the error type. */
export const TIMEOUT_PHRASES = ['timed out', 'timeout', 'deadline exceeded'] as const;

/** The connection died after it was established (the server may have dropped a huge request). */
export const DISCONNECT_PHRASES = [
  'socket hang up',
  'other side closed',
  'connection reset',
  'econnreset',
  'server disconnected',
  'premature close',
  'unexpected eof',
  'peer closed connection',
  'connection was closed',
  'incomplete chunked read',
  'network connection lost',
] as const;

/** TLS hiccups: transport failures, but never evidence of an oversized prompt. */
export const TLS_PHRASES = ['bad record mac', 'ssl alert', 'tls alert', 'eproto'] as const;

/** Node / undici codes of connect, header and body timeouts. */
export const TIMEOUT_ERRNOS: ReadonlySet<string> = new Set([
  'ETIMEDOUT',
  'ESOCKETTIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** Node / undici codes of an established connection that was dropped. */
export const DISCONNECT_ERRNOS: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'ERR_STREAM_PREMATURE_CLOSE',
]);

/** The server was never reached. */
export const CONNECT_ERRNOS: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTDOWN',
]);

/** Error class names of timeouts (both SDKs, `AbortSignal.timeout`, undici). */
export const TIMEOUT_NAMES: ReadonlySet<string> = new Set([
  'APIConnectionTimeoutError',
  'TimeoutError',
  'ConnectTimeoutError',
  'HeadersTimeoutError',
  'BodyTimeoutError',
]);

/** Error class names of other connection failures. */
export const CONNECTION_NAMES: ReadonlySet<string> = new Set([
  'APIConnectionError',
  'SocketError',
  'FetchError',
]);
