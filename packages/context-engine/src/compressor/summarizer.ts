/**
 * The auxiliary summarizer: a function the host passes in (by default a call to the main model),
 * how long its summary may be, and how its failures are told apart.
 */
import { isHermesError } from '@hermes/protocol';

/** One summarizer call. */
export interface SummaryRequest {
  /** The summarizer's instructions (template, rules). */
  readonly system: string;
  /** The span to summarize, with the previous summary and focus topic when there are any. */
  readonly prompt: string;
  /** The most tokens the summary may take. */
  readonly maxTokens: number;
  /** Aborted on timeout or when the host cancels. */
  readonly signal: AbortSignal;
}

/** Writes a summary; resolves to its text. */
export type Summarizer = (request: SummaryRequest) => Promise<string>;

/** Summary size bounds. */
export const SUMMARY_TARGET_SHARE = 0.2;
export const SUMMARY_MIN_TOKENS = 2_000;
export const SUMMARY_MAX_TOKENS = 10_000;
export const SUMMARY_MAX_WINDOW_SHARE = 0.05;

/**
 * The summary budget for a span: 20% of it, at least 2,000 tokens, at most
 * min(5% of the window, 10,000). The ceiling wins when it is below the minimum (small windows).
 */
export function summaryTokenBudget(spanTokens: number, contextLength: number): number {
  const ceiling = Math.min(
    Math.floor(contextLength * SUMMARY_MAX_WINDOW_SHARE),
    SUMMARY_MAX_TOKENS,
  );
  const wanted = Math.max(Math.ceil(spanTokens * SUMMARY_TARGET_SHARE), SUMMARY_MIN_TOKENS);
  return Math.max(1, Math.min(wanted, ceiling));
}

/** How a summarizer failure is handled: `auth` aborts, `cancelled` aborts, `failed` falls back. */
export type SummarizerFailure = 'auth' | 'cancelled' | 'failed';

const AUTH_CODES = /^provider\.(auth|auth_permanent|billing|missing_api_key|no_credentials)$/;

/** Sorts a summarizer error into the way it is handled. */
export function classifySummarizerError(
  error: unknown,
  hostSignal?: AbortSignal,
): SummarizerFailure {
  if (hostSignal?.aborted) return 'cancelled';
  if (isHermesError(error) && AUTH_CODES.test(error.code)) return 'auth';
  const status = (error as { status?: unknown } | null)?.status;
  if (status === 401 || status === 403) return 'auth';
  return 'failed';
}

/** Runs `summarizer` with a timeout, following the host's signal too. */
export async function callSummarizer(
  summarizer: Summarizer,
  request: Omit<SummaryRequest, 'signal'>,
  timeoutMs: number,
  hostSignal?: AbortSignal,
): Promise<string> {
  // Already cancelled: do not start a call that would only be waited out to its timeout.
  hostSignal?.throwIfAborted();
  const controller = new AbortController();
  const onHostAbort = () => controller.abort(hostSignal?.reason);
  hostSignal?.addEventListener('abort', onHostAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`summarizer timed out after ${timeoutMs} ms`);
      error.name = 'TimeoutError';
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    const text = await Promise.race([
      summarizer({ ...request, signal: controller.signal }),
      timeout,
    ]);
    if (typeof text !== 'string') throw new TypeError('summarizer must resolve to a string');
    return text;
  } finally {
    clearTimeout(timer);
    hostSignal?.removeEventListener('abort', onHostAbort);
  }
}
