/**
 * `classifyApiError`: one verdict for any failed model call, so the retry loop, the credential
 * pool and the fallback chain branch on flags instead of each re-reading status codes.
 */
import {
  type ClassifiedError,
  type ErrorContext,
  type FailureReason,
  isProviderError,
} from './classified-error.js';
import { byErrorCode, byMessage, byProviderPattern } from './classify/body-stages.js';
import { type ErrorFacts, extractFacts } from './classify/facts.js';
import { retryAfterFromHeaders, retryAfterFromText } from './classify/retry-after.js';
import { byStatus } from './classify/status-stage.js';
import {
  byDisconnectOnLargeSession,
  byHermesSignal,
  byTransportFailure,
  byTransportTimeout,
} from './classify/transport-stages.js';
import { redactSecrets } from './redact.js';

/** The four action flags of a {@link ClassifiedError}. */
export type FailureFlags = Pick<
  ClassifiedError,
  'retryable' | 'shouldCompress' | 'shouldRotateCredential' | 'shouldFallback'
>;

function flags(
  retryable: boolean,
  shouldCompress: boolean,
  shouldRotateCredential: boolean,
  shouldFallback: boolean,
): FailureFlags {
  return { retryable, shouldCompress, shouldRotateCredential, shouldFallback };
}

/**
 * What each reason asks the caller to do. `retryable` with `shouldFallback` means "fall back
 * once retries are exhausted"; `shouldFallback` without `retryable` means "fall back now".
 *
 * | reason               | retryable | compress | rotate | fallback | typical source                         |
 * | -------------------- | --------- | -------- | ------ | -------- | -------------------------------------- |
 * | `auth`               | no        | no       | yes    | yes      | 401, "invalid api key"                  |
 * | `auth_permanent`     | no        | no       | no     | yes      | 403 "permission" / "revoked"            |
 * | `billing`            | no        | no       | yes    | yes      | 402 "insufficient credits", insufficient_quota |
 * | `rate_limit`         | yes       | no       | yes    | yes      | 429, 402 "usage limit … try again in"   |
 * | `overloaded`         | yes       | no       | no     | yes      | 503, 529, 429 "temporarily overloaded"  |
 * | `server_error`       | yes       | no       | no     | yes      | 500, 502, 504, connection reset/refused |
 * | `timeout`            | yes       | no       | no     | yes      | 408, stale stream, connect/read timeout |
 * | `context_overflow`   | yes       | yes      | no     | no       | 400 "maximum context length", drop on a large session |
 * | `payload_too_large`  | yes       | yes      | no     | no       | 413                                     |
 * | `model_not_found`    | no        | no       | no     | yes      | 404 model                               |
 * | `format_error`       | no        | no       | no     | no       | plain 400 / other 4xx: our request is wrong |
 * | `thinking_signature` | yes       | no       | no     | no       | Anthropic 400 thinking signature: strip thinking, retry |
 * | `long_context_tier`  | yes       | yes      | no     | no       | Anthropic "extra usage … long context", 1M beta refused |
 * | `aborted`            | no        | no       | no     | no       | the caller's AbortSignal                |
 * | `unknown`            | yes       | no       | no     | yes      | anything else (backoff, then fallback)  |
 *
 * "Retryable" for `context_overflow`, `payload_too_large`, `long_context_tier` and
 * `thinking_signature` means "after the request is fixed" (compressed / thinking stripped):
 * {@link callWithRetry} never resends those unchanged.
 */
export const FAILURE_FLAGS: Readonly<Record<FailureReason, FailureFlags>> = {
  auth: flags(false, false, true, true),
  auth_permanent: flags(false, false, false, true),
  billing: flags(false, false, true, true),
  rate_limit: flags(true, false, true, true),
  overloaded: flags(true, false, false, true),
  server_error: flags(true, false, false, true),
  timeout: flags(true, false, false, true),
  context_overflow: flags(true, true, false, false),
  payload_too_large: flags(true, true, false, false),
  model_not_found: flags(false, false, false, true),
  format_error: flags(false, false, false, false),
  thinking_signature: flags(true, false, false, false),
  long_context_tier: flags(true, true, false, false),
  aborted: flags(false, false, false, false),
  unknown: flags(true, false, false, true),
};

/** Extras for {@link classifyApiError}. */
export interface ClassifyOptions {
  /** Milliseconds since the epoch, for HTTP-date and "resets at" waits. Defaults to `Date.now`. */
  readonly now?: () => number;
  /** The configured credentials, masked wherever they appear in the message. */
  readonly secrets?: readonly string[];
}

type Stage = (facts: ErrorFacts, context: ErrorContext) => FailureReason | undefined;

/**
 * The priority pipeline, first verdict wins: Hermes' own signals → provider-specific patterns →
 * HTTP status → structured code → message phrases → transport timeouts → dropped connection on
 * a large session → other transport failures → `unknown`. The large-session check precedes
 * generic transport failures because otherwise a silent context overflow always reads as a
 * transient drop and is retried unchanged forever.
 */
const PIPELINE: readonly Stage[] = [
  byHermesSignal,
  byProviderPattern,
  byStatus,
  byErrorCode,
  byMessage,
  byTransportTimeout,
  byDisconnectOnLargeSession,
  byTransportFailure,
];

/** Longest message kept: enough to act on, short enough for a status line. */
const MAX_MESSAGE = 300;

function shortMessage(facts: ErrorFacts, reason: FailureReason, secrets: readonly string[]) {
  const flat = redactSecrets(facts.display.replace(/\s+/g, ' ').trim(), secrets);
  const text = flat || (facts.status === undefined ? reason : `HTTP ${facts.status}`);
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE - 1)}…` : text;
}

function retryAfterOf(facts: ErrorFacts, now: number): number | undefined {
  return retryAfterFromHeaders(facts.header, now) ?? retryAfterFromText(facts.text, now);
}

/**
 * Classifies a failed model call. Accepts the official SDKs' errors (`openai` and
 * `@anthropic-ai/sdk` `APIError` subclasses, connection and timeout errors), plain objects with
 * `status` / `body` / `headers`, Node system errors, fetch errors with their cause chain,
 * `AbortError`s, Hermes errors and strings. Never throws. A {@link ProviderError} is returned
 * as already classified. `retryAfterMs` comes from `retry-after-ms`, `retry-after` (seconds or
 * HTTP date), Anthropic's `anthropic-ratelimit-*-reset` for an exhausted limit, or the message
 * ("try again in 5 minutes", "resets at <ISO time>"). The message is short and redacted.
 * See {@link FAILURE_FLAGS} for what each reason's flags mean.
 */
export function classifyApiError(
  error: unknown,
  context: ErrorContext,
  options: ClassifyOptions = {},
): ClassifiedError {
  if (isProviderError(error)) return error.classified;
  const facts = extractFacts(error);
  let reason: FailureReason = 'unknown';
  for (const stage of PIPELINE) {
    const verdict = stage(facts, context);
    if (verdict !== undefined) {
      reason = verdict;
      break;
    }
  }
  const retryAfterMs =
    reason === 'aborted' ? undefined : retryAfterOf(facts, (options.now ?? Date.now)());
  return {
    reason,
    ...FAILURE_FLAGS[reason],
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    ...(facts.status === undefined ? {} : { status: facts.status }),
    message: shortMessage(facts, reason, options.secrets ?? []),
  };
}
