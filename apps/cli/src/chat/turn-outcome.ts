/** One-line descriptions of failures: never a stack trace, never a secret. */
import { describeExitReason, type TurnResult } from '@hermes/loop';
import { isHermesError } from '@hermes/protocol';
import { oneLine } from './format.js';

/** What else is known about a failure: the classified error code, the endpoint. */
export interface FailureHints {
  /** The `code` of the turn's last `error` event (e.g. `provider.rate_limited`). */
  readonly code?: string;
  /** The configured base URL, named when the model could not be reached. */
  readonly baseUrl?: string;
}

/** `<what happened> (<exit reason>[, <code>]): <why>[ <hint>]`, on one line. */
export function turnFailureLine(result: TurnResult, hints: FailureHints = {}): string {
  const what = describeExitReason(result.exitReason);
  const tags = [result.exitReason, ...(hints.code ? [hints.code] : [])].join(', ');
  const why = result.error ? `: ${oneLine(result.error, 240)}` : '';
  const unreachable = result.exitReason === 'all_retries_exhausted_no_response' && hints.baseUrl;
  const hint = unreachable ? ` Is the server at ${hints.baseUrl} running?` : '';
  return `${what} (${tags})${why}${hint}`;
}

/** A thrown error as one line: a HermesError's message and code, else the message. */
export function errorLine(error: unknown): string {
  if (isHermesError(error)) return `${oneLine(error.message, 400)} [${error.code}]`;
  return oneLine(error instanceof Error ? error.message : String(error), 300);
}
