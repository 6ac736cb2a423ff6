/**
 * One member of a provider chain with Hermes' retry policy inside it: transient failures are
 * retried with `callWithRetry` before the error reaches the fallback chain, as the chain expects.
 * It lives in a wrapper rather than in `FallbackProvider`'s `retrying` hook because the retry
 * loop needs two things only the call's own options carry: the caller's signal (an abort must
 * end a backoff at once, not after it) and whether the attempt already streamed output.
 */
import { isAbortError } from './abort.js';
import type { ChatOptions, ChatRequest } from './chat-request.js';
import type { ChatResponse } from './chat-response.js';
import { classifyApiError } from './classify-error.js';
import type { FallbackTarget } from './fallback/fallback-provider.js';
import type { ModelInfo } from './model-info.js';
import { type ListModelsOptions, ModelProvider } from './model-provider.js';
import { callWithRetry, type RetryInfo, type Sleep } from './retry.js';
import { trackEmission } from './stream/emission-tracker.js';

/** How a {@link RetryingMember} retries. */
export interface RetryPolicy {
  /** Calls in total, the first included. */
  readonly maxAttempts: number;
  /** Base of the exponential backoff, ms. */
  readonly baseMs: number;
  /** Cap of the exponential part, ms; also the longest `retry-after` waited for. */
  readonly maxMs: number;
  /** Retry even after the attempt streamed output (the caller de-duplicates). */
  readonly retryAfterVisibleText: boolean;
  /** How to wait between attempts. Default: a real timer. */
  readonly sleep?: Sleep;
  /** The jitter source, in [0, 1). Default `Math.random`. */
  readonly random?: () => number;
  /** Told before each retry, with the member being retried. */
  readonly onRetry?: (info: RetryInfo & { readonly target: FallbackTarget }) => void;
}

/**
 * `inner` with retries. An attempt that emitted any stream event is not retried unless
 * `retryAfterVisibleText` is set: a second attempt would restart its blocks at index 0 and show
 * the observer the same output twice. An abort rejects at once, during a call or a backoff,
 * with the inner call's own abort error when there is one (it keeps the partial text).
 */
export class RetryingMember extends ModelProvider {
  readonly name: string;
  readonly #inner: ModelProvider;
  readonly #providerName: string;
  readonly #policy: RetryPolicy;

  /** `providerName` is the configured name the classifier and `onRetry` are told. */
  constructor(inner: ModelProvider, providerName: string, policy: RetryPolicy) {
    super();
    this.#inner = inner;
    this.#providerName = providerName;
    this.#policy = policy;
    this.name = inner.name;
  }

  async chat(request: ChatRequest, options: ChatOptions = {}): Promise<ChatResponse> {
    const { signal } = options;
    let lastError: unknown;
    const tracking = trackEmission(options);
    const innerOptions = tracking.options;
    const target: FallbackTarget = { provider: this.#providerName, model: request.model };
    const attempt = () =>
      this.#inner.chat(request, innerOptions).catch((error: unknown) => {
        lastError = error;
        throw error;
      });
    try {
      return await callWithRetry(attempt, this.#retryOptions(target, signal, tracking.emitted));
    } catch (error) {
      // The retry loop reports aborts in its own words; the adapter's error keeps the partial text.
      throw isAbortError(error) && isAbortError(lastError) ? lastError : error;
    }
  }

  override listModels(options?: ListModelsOptions): Promise<ModelInfo[]> {
    return this.#inner.listModels(options);
  }

  override contextLength(model: string): number | undefined {
    return this.#inner.contextLength(model);
  }

  override close(): Promise<void> {
    return this.#inner.close();
  }

  #retryOptions(target: FallbackTarget, signal: AbortSignal | undefined, emitted: () => boolean) {
    const { sleep, random, onRetry, ...settings } = this.#policy;
    return {
      ...settings,
      classify: (error: unknown) => classifyApiError(error, target),
      hasStreamedVisibleText: emitted,
      ...(signal === undefined ? {} : { signal }),
      ...(sleep === undefined ? {} : { sleep }),
      ...(random === undefined ? {} : { random }),
      ...(onRetry === undefined
        ? {}
        : { onRetry: (info: RetryInfo) => onRetry({ ...info, target }) }),
    };
  }
}
