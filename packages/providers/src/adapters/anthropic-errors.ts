/**
 * The failures the adapter itself detects in an answer, shaped so that `classifyApiError` reads
 * them like the transport and HTTP failures they resemble, and the one place that turns any
 * failure of a call into the error `chat` rejects with.
 */
import type { HermesError } from '@hermes/protocol';
import { type ErrorContext, isProviderError } from '../classified-error.js';
import { classifyApiError } from '../classify-error.js';
import { interruptionError, PartialStreamError } from '../stream/interruption.js';
import type { StaleStreamWatchdog } from '../stream/stale-watchdog.js';

/**
 * The event stream ended without `message_stop`: the connection closed cleanly at the HTTP
 * level but early (a proxy cut it, the server gave up, or a 200 carried no events at all). It
 * carries Node's own code for a stream that ended before it was complete, so the classifier
 * treats it as the dropped connection it is: a transient `server_error`, or a probable context
 * overflow on a very large session.
 */
export class AnthropicIncompleteStreamError extends Error {
  /** Node's code for a stream that ended before completing. */
  readonly code = 'ERR_STREAM_PREMATURE_CLOSE';
  /** Events received before the end. */
  readonly eventsSeen: number;

  constructor(eventsSeen: number) {
    super(
      `The Anthropic event stream ended before message_stop, after ${eventsSeen} event(s); ` +
        'the answer is incomplete.',
    );
    this.name = 'AnthropicIncompleteStreamError';
    this.eventsSeen = eventsSeen;
  }
}

/**
 * An answer the adapter cannot read: a stream frame or a body that is not valid JSON, a known
 * event type with a broken shape, or a non-streamed body that is not a `Message`. Nothing in it
 * names a known failure, so it classifies as `unknown` (retried with backoff, then fallback).
 */
export class AnthropicProtocolError extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AnthropicProtocolError';
  }
}

/**
 * The SDK's `SyntaxError` from `JSON.parse` (a stream frame or a response body cut or garbled) as
 * an {@link AnthropicProtocolError} that says what happened; other errors pass through.
 */
export function asProtocolError(error: unknown, where: 'stream' | 'body'): unknown {
  if (!(error instanceof SyntaxError)) return error;
  const what =
    where === 'stream' ? 'an event stream frame whose JSON' : 'a response body whose JSON';
  return new AnthropicProtocolError(`The Anthropic API sent ${what} could not be parsed.`, {
    cause: error,
  });
}

/**
 * An `error` event inside the stream, when it reached the adapter (the SDK itself raises the ones
 * framed as `event: error`). `error` holds the event the way an SDK error holds a response body,
 * so the classifier reads its `type` (`overloaded_error`, …) and message.
 */
export class AnthropicStreamEventError extends Error {
  /** The error event, `{type: 'error', error: {type, message}}`. */
  readonly error: unknown;

  constructor(event: { readonly error: { readonly message?: string | undefined } }) {
    super(event.error.message ?? 'The Anthropic stream reported an error.');
    this.name = 'AnthropicStreamEventError';
    this.error = event;
  }
}

/** Everything {@link callFailure} needs to know about the failed call. */
export interface CallFailureContext {
  readonly classify: ErrorContext;
  /** The configured API key, masked wherever it appears in the message. */
  readonly apiKey: string;
  readonly callerSignal: AbortSignal | undefined;
  readonly watchdog: StaleStreamWatchdog | undefined;
  /** The visible text streamed before the failure. */
  readonly partialText: string;
}

/**
 * The error a failed call rejects with: an interruption first (the caller aborted →
 * `AbortedWithPartialError`; the stream went stale → `StreamTimeoutError`), otherwise a
 * classified {@link PartialStreamError} whose cause is the original error and whose message never
 * holds the API key. All three keep the partial text.
 */
export function callFailure(error: unknown, context: CallFailureContext): HermesError {
  const interrupted = interruptionError(error, {
    callerSignal: context.callerSignal,
    watchdog: context.watchdog,
    partialText: context.partialText,
  });
  if (interrupted !== undefined) return interrupted;
  if (isProviderError(error)) return error;
  const classified = classifyApiError(error, context.classify, { secrets: [context.apiKey] });
  return new PartialStreamError(classified, context.partialText, { cause: error });
}
