/**
 * Gemini's failures in the shapes `classifyApiError` reads: an HTTP error carrying its status,
 * headers and parsed error body; an error object inside the stream; an answer the adapter
 * cannot read; a stream that ended early. And the one place that turns any failure of a call
 * into the error `chat` rejects with, reading the few Gemini signals the generic classifier
 * cannot see (an invalid key is a 400 here, a missing model a 404 without the usual words).
 */
import type { HermesError } from '@hermes/protocol';
import { type FailureReason, isProviderError } from '../classified-error.js';
import { classifyApiError, FAILURE_FLAGS } from '../classify-error.js';
import { interruptionError, PartialStreamError } from '../stream/interruption.js';
import type { CallFailureContext } from './anthropic-errors.js';
import { errorDetails, type WireErrorBody, WireErrorBodySchema } from './gemini-wire.js';

/** How much of a non-JSON error body is kept: enough for an HTML title, not a whole page. */
const MAX_TEXT_BODY = 2_048;

/**
 * The error object the classifier reads (`message`, and Gemini's `status` as the `type`, such as
 * `resource_exhausted` or `permission_denied`).
 */
interface ClassifierView {
  readonly message?: string | undefined;
  readonly type?: string | undefined;
}

/** `"39s"` / `"1.5s"` (a protobuf duration) as milliseconds for `retry-after-ms`. */
function durationMs(text: string | undefined): string | undefined {
  const match = text === undefined ? null : /^\s*(\d+(?:\.\d+)?)s\s*$/.exec(text);
  return match === null ? undefined : String(Math.round(Number(match[1]) * 1000));
}

function parseBody(text: string): WireErrorBody | undefined {
  try {
    const parsed = WireErrorBodySchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An HTTP error answer. `headers` are lower-cased; when the service asked for a wait only in
 * `RetryInfo.retryDelay`, a `retry-after-ms` of that wait is added, so the classifier's
 * `retryAfterMs` honours it like a header. A real `retry-after` header wins.
 */
export class GeminiHttpError extends Error {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed error body, or the start of the raw text when it was not Gemini's JSON. */
  readonly body: WireErrorBody | string;
  /** The body as the classifier reads it (`facts.ts` takes `.error` first). */
  readonly error: ClassifierView | undefined;
  /** `ErrorInfo.reason` from the details (`API_KEY_INVALID`, …), when given. */
  readonly reason: string | undefined;

  constructor(status: number, headers: Headers, text: string) {
    const body = parseBody(text);
    const message = body?.error.message ?? text.slice(0, 200);
    super(`Gemini API error ${status}${message === '' ? '' : `: ${message}`}`);
    this.name = 'GeminiHttpError';
    this.status = status;
    const details = body === undefined ? [] : errorDetails(body);
    const lower: Record<string, string> = {};
    headers.forEach((value, key) => {
      lower[key.toLowerCase()] = value;
    });
    const delay = durationMs(details.find((d) => d.retryDelay !== undefined)?.retryDelay);
    const hasHeader = lower['retry-after'] !== undefined || lower['retry-after-ms'] !== undefined;
    if (!hasHeader && delay !== undefined) lower['retry-after-ms'] = delay;
    this.headers = lower;
    this.body = body ?? text.slice(0, MAX_TEXT_BODY);
    this.error =
      body === undefined
        ? undefined
        : { message: body.error.message, type: body.error.status?.toLowerCase() };
    this.reason = details.find((d) => d.reason !== undefined)?.reason;
  }
}

/**
 * An `{"error": …}` object sent as a stream frame (the service failed after the 200). It reads
 * like the HTTP error it stands for: Gemini's numeric `code` is the status.
 */
export class GeminiStreamError extends Error {
  readonly status: number | undefined;
  readonly error: ClassifierView;

  constructor(body: WireErrorBody) {
    super(body.error.message ?? 'The Gemini stream reported an error.');
    this.name = 'GeminiStreamError';
    const code = body.error.code;
    this.status = code !== undefined && code >= 400 && code < 600 ? code : undefined;
    this.error = { message: body.error.message, type: body.error.status?.toLowerCase() };
  }
}

/**
 * An answer the adapter cannot read: a frame or body that is not JSON, or JSON that is not a
 * `GenerateContentResponse`. Nothing in it names a known failure, so it classifies as `unknown`.
 */
export class GeminiProtocolError extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GeminiProtocolError';
  }
}

/**
 * The stream ended without a finish reason: the connection closed cleanly but early. It carries
 * Node's code for a premature close, so the classifier treats it as the dropped connection it
 * is (a transient `server_error`, or a probable context overflow on a very large session).
 */
export class GeminiIncompleteStreamError extends Error {
  readonly code = 'ERR_STREAM_PREMATURE_CLOSE';
  readonly framesSeen: number;

  constructor(framesSeen: number) {
    super(
      `The Gemini stream ended without a finish reason, after ${framesSeen} frame(s); ` +
        'the answer is incomplete.',
    );
    this.name = 'GeminiIncompleteStreamError';
    this.framesSeen = framesSeen;
  }
}

/**
 * What Gemini says that the generic rules read otherwise: an invalid key comes as 400
 * INVALID_ARGUMENT with `ErrorInfo.reason` `API_KEY_INVALID` (→ `auth`, not a malformed
 * request), and a missing model as 404 "models/x is not found" (→ `model_not_found`, not a
 * wrong path).
 */
function geminiReason(error: unknown): FailureReason | undefined {
  if (!(error instanceof GeminiHttpError)) return undefined;
  if (error.reason === 'API_KEY_INVALID' || error.reason === 'API_KEY_EXPIRED') return 'auth';
  const message = error.error?.message ?? '';
  if (error.status === 404 && /\bmodels\/\S+ is not found\b/i.test(message)) {
    return 'model_not_found';
  }
  return undefined;
}

/**
 * The error a failed call rejects with: an interruption first (the caller aborted →
 * `AbortedWithPartialError`; the stream went stale → `StreamTimeoutError`), otherwise a
 * classified {@link PartialStreamError} whose cause is the original error and whose message never
 * holds the API key. All three keep the partial text.
 */
export function geminiCallFailure(error: unknown, context: CallFailureContext): HermesError {
  const interrupted = interruptionError(error, {
    callerSignal: context.callerSignal,
    watchdog: context.watchdog,
    partialText: context.partialText,
  });
  if (interrupted !== undefined) return interrupted;
  if (isProviderError(error)) return error;
  let classified = classifyApiError(error, context.classify, { secrets: [context.apiKey] });
  const special = geminiReason(error);
  if (special !== undefined)
    classified = { ...classified, reason: special, ...FAILURE_FLAGS[special] };
  return new PartialStreamError(classified, context.partialText, { cause: error });
}
