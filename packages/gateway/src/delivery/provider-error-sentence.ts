/**
 * Provider errors as people read them (seed 1.4 ④). What a model service returns on failure is
 * written for developers (stack traces, internal codes, request ids, sometimes the key); in a
 * chat it is noise at best and a leak at worst, so the gateway says one plain sentence instead.
 */
import { redactForChat } from './redact-for-chat.js';

/** Every sentence a failure can become, by kind. */
export const PROVIDER_ERROR_SENTENCES = {
  rateLimit: 'The model provider is rate-limiting requests; try again in a minute.',
  overloaded: 'The model provider is overloaded right now; try again in a minute.',
  auth: "The model provider's API key was rejected; the gateway's operator needs to fix its credentials.",
  billing:
    "The model provider account is out of credits; the gateway's operator needs to top it up.",
  contextTooLong:
    'This conversation is too long for the model; send /compress or /new and try again.',
  timeout: 'The model provider took too long to answer; try again in a moment.',
  serverError: 'The model provider had an internal error; try again in a minute.',
  modelNotFound:
    "The model provider does not know the configured model; the gateway's operator needs to check the model name.",
  unknown: 'Something went wrong while getting an answer; please try again.',
} as const;

type Kind = keyof typeof PROVIDER_ERROR_SENTENCES;

/** `provider.<reason>` codes (see `@hermes/providers`' FailureReason) and what they mean here. */
const CODE_KINDS: Readonly<Record<string, Kind>> = {
  'provider.rate_limit': 'rateLimit',
  'provider.overloaded': 'overloaded',
  'provider.auth': 'auth',
  'provider.auth_permanent': 'auth',
  'provider.missing_api_key': 'auth',
  'provider.no_credentials': 'auth',
  'provider.billing': 'billing',
  'provider.context_overflow': 'contextTooLong',
  'provider.payload_too_large': 'contextTooLong',
  'provider.long_context_tier': 'contextTooLong',
  'provider.context_too_small': 'contextTooLong',
  'provider.timeout': 'timeout',
  'provider.stale_stream': 'timeout',
  'provider.server_error': 'serverError',
  'provider.incomplete_stream': 'serverError',
  'provider.malformed_stream': 'serverError',
  'provider.invalid_response': 'serverError',
  'provider.model_not_found': 'modelNotFound',
};

/**
 * Message shapes, most specific first (billing before rate limit: OpenAI reports an empty
 * account as a 429 `insufficient_quota`). Each sentence above matches its own kind, so a text
 * the pipeline already translated comes out unchanged.
 */
const MESSAGE_KINDS: ReadonlyArray<readonly [Kind, RegExp]> = [
  [
    'billing',
    /insufficient[_ ]quota|billing|out of credits|credit balance|payment required|\b402\b/i,
  ],
  [
    'contextTooLong',
    /context[_ ]length|context window|maximum context|too many tokens|prompt is too long|too long for the model|reduce the length/i,
  ],
  [
    'modelNotFound',
    /model_not_found|unknown model|model\b.{0,40}\b(?:not found|does not exist)|does not know the configured model/i,
  ],
  ['auth', /api[ _-]?key|unauthori[sz]ed|authentication|permission denied|forbidden|\b40[13]\b/i],
  ['rateLimit', /rate[ _-]?limit|too many requests|\b429\b/i],
  ['overloaded', /overloaded|\b529\b|\b503\b|service unavailable/i],
  ['timeout', /timed? ?out|timeout|etimedout|took too long|deadline exceeded/i],
  ['serverError', /internal (?:server )?error|server error|bad gateway|\b50[024]\b/i],
];

/** Marks of text written for developers: stack frames, error class prefixes, request ids. */
const DEVELOPER_TEXT =
  /\n\s*at\s|^\s*[A-Za-z]*Error\b:|\breq(?:uest)?[ _-]?id\b|\breq_[A-Za-z0-9]{6,}|\btrace[ _-]?id\b/im;

/** The gateway's own messages are written for people; keep them when they read as one line. */
function ownSentence(error: { code?: string; message: string }): string | undefined {
  if (!error.code?.startsWith('gateway.')) return undefined;
  const message = error.message.trim();
  if (message.length === 0 || message.length > 300 || message.includes('\n')) return undefined;
  if (DEVELOPER_TEXT.test(message)) return undefined;
  return redactForChat(message);
}

/**
 * One human sentence for a failure: rate limit, overload, rejected key, billing, context too
 * long, timeout, server error or unknown model, judged by the stable `code` first
 * (`provider.rate_limit`, …) and by the message's shape otherwise. A `gateway.*` error whose
 * message is a single plain line is kept (redacted); anything else becomes a generic sentence.
 * The result never carries a stack trace, request id or key.
 */
export function providerErrorSentence(error: { code?: string; message: string }): string {
  const byCode = error.code === undefined ? undefined : CODE_KINDS[error.code];
  if (byCode) return PROVIDER_ERROR_SENTENCES[byCode];
  const own = ownSentence(error);
  if (own !== undefined) return own;
  for (const [kind, pattern] of MESSAGE_KINDS) {
    if (pattern.test(error.message)) return PROVIDER_ERROR_SENTENCES[kind];
  }
  return PROVIDER_ERROR_SENTENCES.unknown;
}
