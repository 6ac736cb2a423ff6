/**
 * A {@link ModelProvider} that answers with its primary and, when the primary fails in a way
 * another provider can fix, with the next member of a configured fallback chain — at most once
 * per turn, back to the primary on the next turn.
 */
import { throwIfAborted } from '../abort.js';
import type { ChatOptions, ChatRequest } from '../chat-request.js';
import type { ChatResponse } from '../chat-response.js';
import { isProviderError } from '../classified-error.js';
import type { ModelInfo } from '../model-info.js';
import { type ListModelsOptions, ModelProvider } from '../model-provider.js';
import { trackEmission } from '../stream/emission-tracker.js';
import type { FallbackEntry } from './fallback-config.js';
import { warrantsFallback } from './fallback-policy.js';

/** A provider and model, as reported in a fallback notification. */
export interface FallbackTarget {
  readonly provider: string;
  readonly model: string;
}

/** What {@link FallbackProviderOptions.onFallback} receives; the loop's `fallback_activated`. */
export interface FallbackActivation {
  readonly from: FallbackTarget;
  readonly to: FallbackTarget;
  /** The classified reason of the failure that triggered it, e.g. `auth` or `rate_limit`. */
  readonly reason: string;
}

/** Builds the provider of one chain entry; called lazily, the first time the entry is needed. */
export type FallbackProviderFactory = (
  entry: FallbackEntry,
) => ModelProvider | Promise<ModelProvider>;

/**
 * Runs one member's call with the host's retry policy (e.g. `callWithRetry` from this package's
 * retry module) and rejects with the error left when retries are spent. `target` says which
 * member is being called.
 */
export type RetryingCall = (
  call: () => Promise<ChatResponse>,
  target: FallbackTarget,
) => Promise<ChatResponse>;

/** How to build a {@link FallbackProvider}. */
export interface FallbackProviderOptions {
  /** The provider used at the start of every turn. */
  readonly primary: ModelProvider;
  /** The model to ask the primary for. Default: the request's own `model`. */
  readonly primaryModel?: string;
  /** The configured name of the primary, for notifications and responses. Default `primary.name`. */
  readonly primaryName?: string;
  /** The ordered chain (validate config input with `parseFallbackChain`). */
  readonly chain: readonly FallbackEntry[];
  /** Builds a member's provider from its entry. A factory that throws skips to the next entry. */
  readonly createProvider: FallbackProviderFactory;
  /** Told each time a fallback takes over. Exceptions it throws are swallowed. */
  readonly onFallback?: (activation: FallbackActivation) => void;
  /** Wraps every member call in the host's retries. Default: a single attempt. */
  readonly retrying?: RetryingCall;
  /** This provider's own name. Default `<primary name>+fallback`. */
  readonly name?: string;
}

interface Member {
  readonly provider: ModelProvider;
  readonly target: FallbackTarget;
}

/**
 * The fallback seam. How the loop uses it:
 * - Call {@link beginTurn} at the start of every turn: it restores the primary and re-arms the
 *   once-per-turn switch.
 * - Retries belong inside each member: pass `retrying` (the host's retry wrapper). Errors that
 *   reach this class are final for that member, which is why `rate_limit` / `overloaded` /
 *   `server_error` fall back only after retries while `auth` / `model_not_found` / `billing`
 *   (never retried) fall back at once. See `fallbackTiming`.
 * - Map `onFallback` to the protocol's `fallback_activated` AgentEvent.
 *
 * A failure falls back when `warrantsFallback` says so, no switch happened yet this turn, and
 * the failed attempt emitted no stream event (the observer has already shown that output, and
 * a second answer would break the event ordering). The fallback stays active for the rest of
 * the turn; its failure is final. The response's `provider` names the member that answered.
 */
export class FallbackProvider extends ModelProvider {
  readonly name: string;
  readonly #primary: Member;
  readonly #primaryModel: string | undefined;
  readonly #chain: readonly FallbackEntry[];
  readonly #options: FallbackProviderOptions;
  readonly #built = new Map<number, ModelProvider>();
  #active: Member | undefined;
  /** This turn's one switch, shared by concurrent calls that fail on the primary. */
  #switch: Promise<Member | undefined> | undefined;
  #turn = 0;
  #lastRequestedModel = '';

  constructor(options: FallbackProviderOptions) {
    super();
    const primaryName = options.primaryName ?? options.primary.name;
    this.name = options.name ?? `${primaryName}+fallback`;
    this.#options = options;
    this.#chain = [...options.chain];
    this.#primaryModel = options.primaryModel;
    this.#primary = { provider: options.primary, target: { provider: primaryName, model: '' } };
  }

  /** Starts a turn: the primary answers again, and one fallback switch is allowed. */
  beginTurn(): void {
    this.#active = undefined;
    this.#switch = undefined;
    this.#turn += 1;
  }

  /** Whether a fallback member is answering in the current turn. */
  get fallbackActive(): boolean {
    return this.#active !== undefined;
  }

  /**
   * The member answering now. For a primary without `primaryModel`, `model` is the model of the
   * latest request (empty before the first).
   */
  get current(): FallbackTarget {
    if (this.#active !== undefined) return this.#active.target;
    return {
      provider: this.#primary.target.provider,
      model: this.#primaryModelFor(this.#lastRequestedModel),
    };
  }

  async chat(request: ChatRequest, options: ChatOptions = {}): Promise<ChatResponse> {
    throwIfAborted(options.signal);
    this.#lastRequestedModel = request.model;
    const member = this.#active ?? this.#primary;
    const attempt = await this.#attempt(member, request, options);
    if (attempt.ok) return attempt.response;
    const { error, emitted } = attempt;
    if (emitted || options.signal?.aborted || !warrantsFallback(error)) throw error;
    const next = await this.#nextMember(member, request, error);
    if (next === undefined) throw error;
    const retry = await this.#attempt(next, request, options);
    if (retry.ok) return retry.response;
    throw retry.error;
  }

  override listModels(options?: ListModelsOptions): Promise<ModelInfo[]> {
    return (this.#active ?? this.#primary).provider.listModels(options);
  }

  override contextLength(model: string): number | undefined {
    return (this.#active ?? this.#primary).provider.contextLength(model);
  }

  /** Closes the primary and every member built so far. */
  override async close(): Promise<void> {
    const providers = [this.#primary.provider, ...this.#built.values()];
    await Promise.allSettled(providers.map((provider) => provider.close()));
  }

  async #attempt(
    member: Member,
    request: ChatRequest,
    options: ChatOptions,
  ): Promise<
    { ok: true; response: ChatResponse } | { ok: false; error: unknown; emitted: boolean }
  > {
    const tracking = trackEmission(options);
    const memberOptions = tracking.options;
    const model = this.#modelFor(member, request);
    const memberRequest: ChatRequest = model === request.model ? request : { ...request, model };
    const call = () => member.provider.chat(memberRequest, memberOptions);
    const target = { provider: member.target.provider, model };
    try {
      const response = await (this.#options.retrying?.(call, target) ?? call());
      return { ok: true, response: { ...response, provider: member.target.provider } };
    } catch (error) {
      return { ok: false, error, emitted: tracking.emitted() };
    }
  }

  #modelFor(member: Member, request: ChatRequest): string {
    return member === this.#primary ? this.#primaryModelFor(request.model) : member.target.model;
  }

  #primaryModelFor(requested: string): string {
    return this.#primaryModel ?? requested;
  }

  /**
   * Where a call that failed on `failed` goes next. A fallback's failure is final for the turn.
   * A primary failure starts this turn's one switch, or joins it when a concurrent call already
   * started it, so both land on the same member and the observer hears of it once.
   */
  #nextMember(failed: Member, request: ChatRequest, error: unknown): Promise<Member | undefined> {
    if (failed !== this.#primary) return Promise.resolve(undefined);
    if (this.#switch === undefined) {
      const from = { provider: failed.target.provider, model: this.#modelFor(failed, request) };
      this.#switch = this.#activateNext(from, reasonOf(error), this.#turn);
    }
    return this.#switch;
  }

  /** Builds the first chain entry whose factory succeeds, makes it active, and notifies. */
  async #activateNext(
    from: FallbackTarget,
    reason: string,
    turn: number,
  ): Promise<Member | undefined> {
    for (const [index, entry] of this.#chain.entries()) {
      const provider = await this.#build(index, entry);
      if (provider === undefined) continue;
      const member: Member = { provider, target: { provider: entry.provider, model: entry.model } };
      // A switch that completes after `beginTurn` serves its own call but not the new turn.
      if (turn === this.#turn) this.#active = member;
      this.#notify({ from, to: member.target, reason });
      return member;
    }
    return undefined;
  }

  async #build(index: number, entry: FallbackEntry): Promise<ModelProvider | undefined> {
    const existing = this.#built.get(index);
    if (existing !== undefined) return existing;
    try {
      const provider = await this.#options.createProvider(entry);
      this.#built.set(index, provider);
      return provider;
    } catch {
      // A member that cannot be built (say, its key variable is unset) is skipped, not fatal:
      // the next entry may still answer, and the primary's error is what the caller sees.
      return undefined;
    }
  }

  #notify(activation: FallbackActivation): void {
    try {
      this.#options.onFallback?.(activation);
    } catch {
      // Observers can never break a model call.
    }
  }
}

function reasonOf(error: unknown): string {
  return isProviderError(error) ? error.classified.reason : 'unknown';
}
