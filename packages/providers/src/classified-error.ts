/**
 * What a failed model call means for the caller: whether to retry, compress, rotate the
 * credential or fall back. Produced by `classifyApiError`; carried by {@link ProviderError}.
 */
import { HermesError, isHermesError } from '@hermes/protocol';
import { z } from 'zod';

/**
 * Why a model call failed, normalized across providers:
 * `auth` (key rejected, may recover after rotation), `auth_permanent` (key revoked / not allowed),
 * `billing` (out of credits: not retryable), `rate_limit` (incl. usage-window limits),
 * `overloaded` (503 / 529 / "temporarily overloaded"), `server_error` (other 5xx), `timeout`
 * (408, stale stream, connect/read timeout), `context_overflow` (prompt too long), `payload_too_large`
 * (413), `model_not_found`, `format_error` (plain 400: our request is wrong), `thinking_signature`
 * (replayed thinking rejected), `long_context_tier` (needs a long-context tier / beta), `aborted`
 * (the caller cancelled), `unknown`.
 */
export const FailureReasonSchema = z.enum([
  'auth',
  'auth_permanent',
  'billing',
  'rate_limit',
  'overloaded',
  'server_error',
  'timeout',
  'context_overflow',
  'payload_too_large',
  'model_not_found',
  'format_error',
  'thinking_signature',
  'long_context_tier',
  'aborted',
  'unknown',
]);
export type FailureReason = z.infer<typeof FailureReasonSchema>;

/** The verdict on one failure: what it is and what the caller should do about it. */
export interface ClassifiedError {
  readonly reason: FailureReason;
  /** Trying the same request again (after a backoff) may succeed. */
  readonly retryable: boolean;
  /** The prompt must shrink before a retry can succeed. */
  readonly shouldCompress: boolean;
  /** Another credential from the pool may succeed where this one failed. */
  readonly shouldRotateCredential: boolean;
  /** Switching to the next provider in the fallback chain is warranted. */
  readonly shouldFallback: boolean;
  /** How long the service asked us to wait (`retry-after`, "try again in 5 minutes"), in ms. */
  readonly retryAfterMs?: number;
  /** The HTTP status, when there was a response. */
  readonly status?: number;
  /** A short, secret-free description of the failure. */
  readonly message: string;
}

/** What the classifier may know beyond the error itself. */
export interface ErrorContext {
  /** The adapter or configured provider name (`openai-chat`, `openrouter`, `anthropic`, …). */
  readonly provider: string;
  readonly model: string;
  /** Estimated prompt tokens of the failed request. */
  readonly approxPromptTokens?: number;
  /** The model's context window, when known. */
  readonly contextLength?: number;
  /** Messages in the failed request. */
  readonly messageCount?: number;
}

/**
 * A failed model call, classified. `code` is `provider.<reason>`; `retryable` mirrors the
 * classification. The message and details are redacted: they never contain a credential.
 */
export class ProviderError extends HermesError {
  readonly classified: ClassifiedError;

  constructor(classified: ClassifiedError, options: { cause?: unknown } = {}) {
    super(`provider.${classified.reason}`, classified.message, {
      cause: options.cause,
      retryable: classified.retryable,
      details: { ...classified },
    });
    this.classified = classified;
  }
}

/** True when `error` is a {@link ProviderError} from any copy of this package. */
export function isProviderError(error: unknown): error is ProviderError {
  if (!isHermesError(error) || !error.code.startsWith('provider.')) return false;
  const classified: unknown = (error as unknown as { classified?: unknown }).classified;
  return typeof classified === 'object' && classified !== null;
}
