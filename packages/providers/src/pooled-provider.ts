/**
 * A {@link ModelProvider} that spreads its calls over a {@link CredentialPool}: each call leases
 * a key, asks the adapter built for that key, and tells the pool how the key fared. A key the
 * service rejects (auth, billing, rate limit) is benched and the call moves on to the next one.
 */
import { isAbortError, throwIfAborted } from './abort.js';
import type { ChatOptions, ChatRequest } from './chat-request.js';
import type { ChatResponse } from './chat-response.js';
import { type ClassifiedError, isProviderError } from './classified-error.js';
import { classifyApiError } from './classify-error.js';
import type { CredentialPool } from './credentials/credential-pool.js';
import type { Lease } from './credentials/lease.js';
import { NoCredentialsError } from './credentials/no-credentials-error.js';
import type { ModelInfo } from './model-info.js';
import { type ListModelsOptions, ModelProvider } from './model-provider.js';
import { trackEmission } from './stream/emission-tracker.js';
import { partialTextOf } from './stream/interruption.js';

/** Builds the adapter that sends requests with one API key. */
export type AdapterForKey = (apiKey: string) => ModelProvider;

/** How to build a {@link PooledProvider}. */
export interface PooledProviderOptions {
  /** The keys to spread calls over. Share one pool per provider within a process. */
  readonly pool: CredentialPool;
  /** Builds the adapter for one key; called once per key, the first time that key is leased. */
  readonly createAdapter: AdapterForKey;
  /**
   * This provider's name. Default: the name of the adapter `createAdapter` builds, read from one
   * adapter built with {@link PROBE_API_KEY} (that adapter never sends a request).
   */
  readonly name?: string;
}

/**
 * The placeholder key of the probe adapter, which only answers `name` and `contextLength`
 * before any key has been leased. It is never sent anywhere.
 */
export const PROBE_API_KEY = 'hermes-probe-key-never-sent';

type Attempt =
  | { readonly ok: true; readonly response: ChatResponse }
  | { readonly ok: false; readonly error: unknown; readonly rotate: boolean };

/**
 * Pool-backed provider. One `chat` call:
 * 1. leases a key — when none is usable the pool's `NoCredentialsError` propagates; it is
 *    classified with `shouldFallback`, so a fallback chain moves on;
 * 2. calls the key's adapter (one adapter instance per credential id, reused);
 * 3. on success reports it (a cooling key is healthy again) and returns the response;
 * 4. on failure reports the classified failure to the pool (which benches or kills the key as
 *    the classification warrants) and, when the classification says `shouldRotateCredential`,
 *    repeats with the next usable key not yet tried in this call — at most once per key, and
 *    never after the attempt streamed an event or kept partial text: the observer has already
 *    shown that output, and a second answer would repeat it and break the event order.
 *    Otherwise, or when no untried key is left, the failure is rethrown unchanged.
 * An abort releases the key without a verdict (it was not the key's fault) and rethrows.
 */
export class PooledProvider extends ModelProvider {
  readonly name: string;
  /** The pool this provider leases from (for status output and resets). */
  readonly pool: CredentialPool;
  readonly #createAdapter: AdapterForKey;
  readonly #adapters = new Map<string, ModelProvider>();
  #probe: ModelProvider | undefined;
  #latest: ModelProvider | undefined;

  constructor(options: PooledProviderOptions) {
    super();
    this.pool = options.pool;
    this.#createAdapter = options.createAdapter;
    this.name = options.name ?? this.#probeAdapter().name;
  }

  async chat(request: ChatRequest, options: ChatOptions = {}): Promise<ChatResponse> {
    throwIfAborted(options.signal);
    const tried: string[] = [];
    let lease = this.pool.lease();
    for (;;) {
      const attempt = await this.#attempt(lease, request, options);
      if (attempt.ok) return attempt.response;
      tried.push(lease.credential.id);
      const rotate = attempt.rotate && !options.signal?.aborted && tried.length < this.pool.size;
      const next = rotate ? this.#leaseUntried(tried) : undefined;
      if (next === undefined) throw attempt.error;
      lease = next;
    }
  }

  /** Lists the models with a leased key, reporting the outcome to the pool like `chat` does. */
  override async listModels(options?: ListModelsOptions): Promise<ModelInfo[]> {
    const lease = this.pool.lease();
    try {
      const models = await this.#adapterFor(lease).listModels(options);
      lease.reportSuccess();
      return models;
    } catch (error) {
      this.#settleFailure(lease, error, '', options?.signal);
      throw error;
    }
  }

  /** Asks the adapter used last (or the probe adapter, before any call). */
  override contextLength(model: string): number | undefined {
    return (this.#latest ?? this.#probeAdapter()).contextLength(model);
  }

  /** Closes every adapter built so far; a later call builds fresh ones. */
  override async close(): Promise<void> {
    const adapters = [...this.#adapters.values(), ...(this.#probe ? [this.#probe] : [])];
    this.#adapters.clear();
    this.#probe = undefined;
    this.#latest = undefined;
    await Promise.allSettled(adapters.map((adapter) => adapter.close()));
  }

  async #attempt(lease: Lease, request: ChatRequest, options: ChatOptions): Promise<Attempt> {
    const tracking = trackEmission(options);
    const adapterOptions = tracking.options;
    try {
      const response = await this.#adapterFor(lease).chat(request, adapterOptions);
      lease.reportSuccess();
      return { ok: true, response };
    } catch (error) {
      const rotateWorthy = this.#settleFailure(lease, error, request.model, options.signal);
      const shown = tracking.emitted() || (partialTextOf(error) ?? '') !== '';
      return { ok: false, error, rotate: rotateWorthy && !shown };
    }
  }

  /**
   * Gives the lease back with a verdict: none for an abort, the classification otherwise.
   * Returns whether another key may succeed where this one failed.
   */
  #settleFailure(
    lease: Lease,
    error: unknown,
    model: string,
    signal: AbortSignal | undefined,
  ): boolean {
    if (isAbortError(error) || signal?.aborted === true) {
      lease.release();
      return false;
    }
    const classified = this.#classify(error, model, lease);
    lease.reportFailure(classified);
    return classified.shouldRotateCredential;
  }

  #classify(error: unknown, model: string, lease: Lease): ClassifiedError {
    if (isProviderError(error)) return error.classified;
    // Adapters classify their own failures; this covers a factory or adapter that threw raw.
    return classifyApiError(error, { provider: this.name, model }, { secrets: [lease.apiKey] });
  }

  /** The next usable key not tried in this call, or `undefined` when there is none. */
  #leaseUntried(tried: readonly string[]): Lease | undefined {
    try {
      return this.pool.lease({ excludeIds: tried });
    } catch (error) {
      if (error instanceof NoCredentialsError) return undefined;
      throw error;
    }
  }

  #adapterFor(lease: Lease): ModelProvider {
    const id = lease.credential.id;
    let adapter = this.#adapters.get(id);
    if (adapter === undefined) {
      adapter = this.#createAdapter(lease.apiKey);
      this.#adapters.set(id, adapter);
    }
    this.#latest = adapter;
    return adapter;
  }

  #probeAdapter(): ModelProvider {
    this.#probe ??= this.#createAdapter(PROBE_API_KEY);
    return this.#probe;
  }
}
