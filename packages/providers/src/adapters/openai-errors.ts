/**
 * Turning any failure of an OpenAI call into what `chat` rejects with: an interruption (the
 * caller's abort, a stale stream) keeps its own error; everything else is classified by
 * `classifyApiError` into a {@link ProviderError} whose message never holds the API key. A
 * failure after visible text streamed keeps that text, so the retry layer does not resend a
 * request whose first half the user already saw.
 */
import { HermesError } from '@hermes/protocol';
import type { ChatRequest } from '../chat-request.js';
import { type ErrorContext, ProviderError } from '../classified-error.js';
import { classifyApiError } from '../classify-error.js';
import { interruptionError, PartialStreamError } from '../stream/interruption.js';
import type { StaleStreamWatchdog } from '../stream/stale-watchdog.js';
import { approxPromptTokens } from './openai-shared.js';

/** The code of {@link invalidResponseError}. */
export const INVALID_RESPONSE_CODE = 'provider.invalid_response';

/** The code of {@link incompleteStreamError}. */
export const INCOMPLETE_STREAM_CODE = 'provider.incomplete_stream';

/** The code of {@link malformedStreamError}. */
export const MALFORMED_STREAM_CODE = 'provider.malformed_stream';

/** Longest piece of an unreadable body quoted in a message. */
const MAX_SNIPPET = 120;

/**
 * The service answered 2xx with a body that is not the expected JSON (an HTML page from a proxy,
 * plain text, nothing at all). Classified `unknown`: retryable, then fallback.
 */
export function invalidResponseError(what: string, body: string, cause?: unknown): HermesError {
  const flat = body.replace(/\s+/g, ' ').trim();
  const snippet = flat.length > MAX_SNIPPET ? `${flat.slice(0, MAX_SNIPPET)}…` : flat;
  const shown = snippet === '' ? 'an empty body' : `"${snippet}"`;
  return new HermesError(
    INVALID_RESPONSE_CODE,
    `The service answered with ${shown}, which is not a valid ${what}.`,
    { cause, retryable: true },
  );
}

/**
 * The stream ended without the event that completes an answer (`finish_reason`,
 * `response.completed`): a body cut short by a proxy, or a 200 with no events at all.
 */
export function incompleteStreamError(receivedEvents: number): HermesError {
  const message =
    receivedEvents === 0
      ? 'The service answered with a stream that carried no events (empty or not SSE).'
      : 'The model stream ended before the answer was complete (no final event).';
  return new HermesError(INCOMPLETE_STREAM_CODE, message, { retryable: true });
}

/**
 * A stream event whose data is not valid JSON (the SDK's `JSON.parse` threw): a proxy that cut a
 * frame, or a server that is not speaking the protocol. Classified `unknown`.
 */
export function malformedStreamError(cause: SyntaxError): HermesError {
  return new HermesError(
    MALFORMED_STREAM_CODE,
    `The model stream carried an event that is not valid JSON (${cause.message}).`,
    { cause, retryable: true },
  );
}

/** What {@link toChatError} needs to know about the failed call. */
export interface FailedCall {
  readonly request: ChatRequest;
  readonly provider: string;
  readonly apiKey: string;
  readonly contextLength: number | undefined;
  readonly callerSignal: AbortSignal | undefined;
  readonly watchdog: StaleStreamWatchdog;
  /** The visible text streamed before the failure. */
  readonly partialText: string;
}

/**
 * The error `chat` rejects with for `error`: the interruption error when it was one, else a
 * classified {@link ProviderError} ({@link PartialStreamError} when text had streamed).
 */
export function toChatError(error: unknown, call: FailedCall): HermesError {
  const interrupted = interruptionError(error, {
    callerSignal: call.callerSignal,
    watchdog: call.watchdog,
    partialText: call.partialText,
  });
  if (interrupted !== undefined) return interrupted;
  const context: ErrorContext = {
    provider: call.provider,
    model: call.request.model,
    approxPromptTokens: approxPromptTokens(call.request),
    messageCount: call.request.messages.length,
    ...(call.contextLength === undefined ? {} : { contextLength: call.contextLength }),
  };
  const classified = classifyApiError(error, context, { secrets: [call.apiKey] });
  return call.partialText === ''
    ? new ProviderError(classified, { cause: error })
    : new PartialStreamError(classified, call.partialText, { cause: error });
}

/** The error `listModels` rejects with: an abort as is, anything else classified. */
export function toListingError(
  error: unknown,
  provider: string,
  apiKey: string,
  signal: AbortSignal | undefined,
): HermesError {
  const interrupted = interruptionError(error, { callerSignal: signal, partialText: '' });
  if (interrupted !== undefined) return interrupted;
  const classified = classifyApiError(error, { provider, model: '' }, { secrets: [apiKey] });
  return new ProviderError(classified, { cause: error });
}
