/**
 * Bedrock failures in the classifier's vocabulary. The AWS SDK raises typed exceptions
 * (`ThrottlingException`, `AccessDeniedException`, …) whose status hides in `$metadata` and whose
 * type is their `name`, where `classifyApiError` does not look; {@link BedrockServiceError}
 * restates them as a status, headers and an `{error: {type, code, message}}` body, the shape it
 * reads for every other service. Also the failures the adapter itself detects in an answer, and
 * the one place that turns any failure of a call into the error `chat` rejects with.
 */
import type { HermesError } from '@hermes/protocol';
import { type ErrorContext, isProviderError } from '../classified-error.js';
import { classifyApiError } from '../classify-error.js';
import { interruptionError, PartialStreamError } from '../stream/interruption.js';
import type { StaleStreamWatchdog } from '../stream/stale-watchdog.js';

/**
 * The classifier's structured code for each Bedrock exception whose name says more than its
 * status (and which mid-stream, where there is no status, is all there is to go on).
 */
const EXCEPTION_CODES: Readonly<Record<string, string>> = {
  ThrottlingException: 'rate_limit_exceeded',
  // Bedrock's quota errors are per-minute token and request quotas, not an empty wallet.
  ServiceQuotaExceededException: 'rate_limit_exceeded',
  ModelNotReadyException: 'rate_limit_exceeded',
  ServiceUnavailableException: 'overloaded_error',
  InternalServerException: 'server_error',
  ModelStreamErrorException: 'server_error',
  ModelErrorException: 'server_error',
  ModelTimeoutException: 'timeout_error',
  AccessDeniedException: 'authentication_error',
  UnrecognizedClientException: 'authentication_error',
  ExpiredTokenException: 'authentication_error',
  InvalidSignatureException: 'authentication_error',
  IncompleteSignatureException: 'authentication_error',
  MissingAuthenticationTokenException: 'authentication_error',
  ResourceNotFoundException: 'model_not_found',
  // Raised by the SDK itself, before any request: the default chain found no credentials (or no
  // bearer token). Another credential or provider may work; retrying this one cannot.
  CredentialsProviderError: 'authentication_error',
  TokenProviderError: 'authentication_error',
};

/** The SDK's own errors, raised before any request, that {@link EXCEPTION_CODES} names. */
const CLIENT_SIDE_ERRORS: ReadonlySet<string> = new Set([
  'CredentialsProviderError',
  'TokenProviderError',
]);

/**
 * How Bedrock's models say a `ValidationException` is an oversized prompt (each model family
 * words it its own way; the SDK passes the model's words through).
 */
const CONTEXT_PHRASES = [
  'input is too long',
  'too many input tokens',
  'input tokens exceed',
  'number of input tokens exceeds',
  'prompt is too long',
  'maximum context length',
  'context window',
] as const;

/** How a `ValidationException` says the model id names no model. */
const UNKNOWN_MODEL_PHRASES = ['model identifier is invalid', 'model id is invalid'] as const;

/**
 * The code of a Bedrock exception: by its name, and for a `ValidationException` (Bedrock's one
 * 400 for everything) by its words; `undefined` when the status says enough.
 */
export function bedrockErrorCode(name: string, message: string): string | undefined {
  if (name !== 'ValidationException') return EXCEPTION_CODES[name];
  const text = message.toLowerCase();
  if (CONTEXT_PHRASES.some((phrase) => text.includes(phrase))) return 'context_length_exceeded';
  if (UNKNOWN_MODEL_PHRASES.some((phrase) => text.includes(phrase))) return 'model_not_found';
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * An AWS SDK service exception (it has `$metadata`), or one of the SDK's own credential errors:
 * the failures {@link BedrockServiceError} restates.
 */
function isSdkException(error: unknown): error is Error & Record<string, unknown> {
  if (!(error instanceof Error)) return false;
  return (
    isRecord((error as { $metadata?: unknown }).$metadata) || CLIENT_SIDE_ERRORS.has(error.name)
  );
}

/** The response headers the SDK keeps on an exception (`$response`), lower-cased. */
function headersOf(error: Record<string, unknown>): Record<string, string> {
  const response = error.$response;
  const headers = isRecord(response) && isRecord(response.headers) ? response.headers : {};
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (typeof value === 'string') out[key.toLowerCase()] = value;
  }
  return out;
}

/**
 * A Bedrock service exception restated for the classifier: `status` from `$metadata`, `headers`
 * from the response (a `retry-after` there is honoured), and `error` holding the exception's
 * name as `type` plus its code from {@link bedrockErrorCode}. The original is the `cause`.
 */
export class BedrockServiceError extends Error {
  readonly status: number | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly error: { readonly type: string; readonly code?: string; readonly message: string };

  constructor(exception: Error & Record<string, unknown>) {
    super(exception.message, { cause: exception });
    this.name = 'BedrockServiceError';
    const metadata = isRecord(exception.$metadata) ? exception.$metadata : {};
    this.status = typeof metadata.httpStatusCode === 'number' ? metadata.httpStatusCode : undefined;
    this.headers = headersOf(exception);
    const code = bedrockErrorCode(exception.name, exception.message);
    this.error = {
      type: exception.name,
      ...(code === undefined ? {} : { code }),
      message: exception.message,
    };
  }
}

/**
 * The stream ended without `messageStop`: the connection closed early. It carries Node's code
 * for a stream that ended before completing, so the classifier reads it as the dropped
 * connection it is (transient, or a probable overflow on a very large session).
 */
export class BedrockIncompleteStreamError extends Error {
  readonly code = 'ERR_STREAM_PREMATURE_CLOSE';

  constructor(eventsSeen: number) {
    super(
      `The Bedrock event stream ended before messageStop, after ${eventsSeen} event(s); ` +
        'the answer is incomplete.',
    );
    this.name = 'BedrockIncompleteStreamError';
  }
}

/** An answer the adapter cannot read (a malformed event or body): classifies as `unknown`. */
export class BedrockProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BedrockProtocolError';
  }
}

/** An exception member inside the stream (when the SDK did not raise it itself). */
export function streamException(name: string, body: unknown): Error {
  const message =
    isRecord(body) && typeof body.message === 'string' ? body.message : `${name} in the stream`;
  // Shaped like the SDK's own exceptions (a name and empty `$metadata`: no HTTP status).
  return Object.assign(new Error(message), { name, $metadata: {}, $fault: 'server' });
}

/** Everything {@link bedrockCallFailure} needs to know about the failed call. */
export interface BedrockFailureContext {
  readonly classify: ErrorContext;
  /** Every configured secret (API key, secret access key, session token), masked in messages. */
  readonly secrets: readonly string[];
  readonly callerSignal: AbortSignal | undefined;
  readonly watchdog: StaleStreamWatchdog | undefined;
  /** The visible text streamed before the failure. */
  readonly partialText: string;
}

/**
 * The error a failed call rejects with: an interruption first (the caller aborted →
 * `AbortedWithPartialError`; the stream went stale → `StreamTimeoutError`), otherwise a
 * classified `PartialStreamError` whose cause is the original error. All keep the partial text.
 */
export function bedrockCallFailure(error: unknown, context: BedrockFailureContext): HermesError {
  const interrupted = interruptionError(error, {
    callerSignal: context.callerSignal,
    watchdog: context.watchdog,
    partialText: context.partialText,
  });
  if (interrupted !== undefined) return interrupted;
  if (isProviderError(error)) return error;
  const readable = isSdkException(error) ? new BedrockServiceError(error) : error;
  const classified = classifyApiError(readable, context.classify, { secrets: context.secrets });
  return new PartialStreamError(classified, context.partialText, { cause: error });
}
