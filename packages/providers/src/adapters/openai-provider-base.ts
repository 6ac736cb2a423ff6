/**
 * What the two OpenAI adapters share: the SDK client, the shape of one `chat` call (watchdog,
 * accumulator, abort race, error mapping), the model listing and context lengths. Each adapter
 * supplies only how to send its request and read its answer.
 *
 * A call streams unless `request.stream === false`: the agent loop streams by default, and only a
 * stream lets the stale-stream watchdog tell a slow model from a dead connection. A non-streamed
 * call is guarded by the same watchdog, which then bounds the whole answer (there are no chunks
 * to reset it), so callers that disable streaming for slow models should raise `staleTimeoutMs`.
 */
import type OpenAI from 'openai';
import { throwIfAborted } from '../abort.js';
import type { ChatOptions, ChatRequest } from '../chat-request.js';
import type { ChatResponse } from '../chat-response.js';
import type { ModelInfo } from '../model-info.js';
import { type ListModelsOptions, ModelProvider } from '../model-provider.js';
import { abortable, raceAbort } from '../stream/abortable.js';
import { StreamAccumulator } from '../stream/response-builder.js';
import { StaleStreamWatchdog } from '../stream/stale-watchdog.js';
import type { AdapterOptions } from './adapter-options.js';
import {
  createOpenAIClient,
  type ResolvedOpenAIOptions,
  resolveOpenAIOptions,
} from './openai-client.js';
import { malformedStreamError, toChatError, toListingError } from './openai-errors.js';
import { knownContextLength, parseModelListing } from './openai-models.js';
import type { WireIdentity } from './openai-shared.js';
import { isOpenRouter } from './openai-shared.js';

/** A pending SDK request whose raw HTTP response can be taken instead of the parsed body. */
interface RawResponsePromise {
  asResponse(): Promise<Response>;
}

/** Everything one streamed or JSON answer needs from the shared `chat` skeleton. */
export interface AnswerContext {
  readonly request: ChatRequest;
  readonly acc: StreamAccumulator;
  readonly watchdog: StaleStreamWatchdog;
}

/** The shared base of {@link OpenAIChatProvider} and {@link OpenAIResponsesProvider}. */
export abstract class OpenAIProviderBase extends ModelProvider {
  /** The official SDK client, configured once (no retries, no SDK timeout, no logging). */
  #client: Promise<OpenAI> | undefined;
  /** Validated options with defaults applied. */
  protected readonly settings: ResolvedOpenAIOptions;
  /** The endpoint is OpenRouter. */
  protected readonly openRouter: boolean;
  /** Context windows reported by the last `listModels`. */
  private readonly listedWindows = new Map<string, number>();

  /** @throws ValidationError when `options` are malformed. */
  protected constructor(options: AdapterOptions, adapterName: string) {
    super();
    this.settings = resolveOpenAIOptions(options, adapterName);
    this.openRouter = isOpenRouter({
      baseUrl: this.settings.baseUrl,
      providerName: this.settings.providerName,
    });
  }

  /** Sends `request` as a stream and feeds every event to `ctx.acc`, touching the watchdog. */
  protected abstract streamAnswer(ctx: AnswerContext): Promise<WireIdentity>;

  /** Sends `request` without streaming and feeds the answer to `ctx.acc`. */
  protected abstract jsonAnswer(ctx: AnswerContext): Promise<WireIdentity>;

  /**
   * One model call; see {@link ModelProvider.chat}. Streams unless `request.stream === false`.
   * Rejects with an abort error keeping the partial text within moments of `options.signal`
   * aborting, with a `timeout` error when the stream goes stale, and with a classified
   * `ProviderError` for everything else.
   */
  async chat(request: ChatRequest, options: ChatOptions = {}): Promise<ChatResponse> {
    throwIfAborted(options.signal);
    const watchdog = new StaleStreamWatchdog({
      timeoutMs: this.settings.staleTimeoutMs,
      signal: options.signal,
    });
    const acc = new StreamAccumulator({ onEvent: options.onEvent });
    try {
      const ctx: AnswerContext = { request, acc, watchdog };
      const who =
        request.stream === false ? await this.jsonAnswer(ctx) : await this.streamAnswer(ctx);
      return acc.build({
        model: who.model || request.model,
        provider: this.settings.providerName,
        responseId: who.responseId,
      });
    } catch (error) {
      acc.abandon();
      throw toChatError(error, {
        request,
        provider: this.settings.providerName,
        apiKey: this.settings.apiKey,
        contextLength: this.contextLength(request.model),
        callerSignal: options.signal,
        watchdog,
        partialText: acc.partialText(),
      });
    } finally {
      watchdog.stop();
    }
  }

  /**
   * Iterates an SDK stream so that an abort or a stall ends it at once, touching the watchdog
   * for every event and handing each to `feed`.
   */
  protected async consume<T>(
    stream: PromiseLike<AsyncIterable<T>>,
    watchdog: StaleStreamWatchdog,
    feed: (event: T) => void,
  ): Promise<void> {
    const events = await raceAbort(stream, watchdog.signal);
    watchdog.touch();
    try {
      for await (const event of abortable(events, watchdog.signal)) {
        watchdog.touch();
        feed(event);
      }
    } catch (error) {
      // Only the SDK's JSON.parse of an event throws a SyntaxError here.
      throw error instanceof SyntaxError ? malformedStreamError(error) : error;
    }
  }

  /** The raw body of a non-streamed SDK request, as text, racing `signal` throughout. */
  protected async bodyText(
    pending: RawResponsePromise,
    signal: AbortSignal | undefined,
  ): Promise<string> {
    const response = await raceAbort(pending.asResponse(), signal);
    return raceAbort(response.text(), signal);
  }

  /** The SDK client, created (and the SDK imported) on first use. */
  protected sdkClient(): Promise<OpenAI> {
    this.#client ??= createOpenAIClient(this.settings);
    return this.#client;
  }

  /**
   * The models the endpoint lists (`GET /models`), with context windows from the listing
   * (OpenRouter), a config override or the built-in table.
   */
  override async listModels(options: ListModelsOptions = {}): Promise<ModelInfo[]> {
    const { signal } = options;
    throwIfAborted(signal);
    const overrides = this.settings.options.modelLimitOverrides ?? {};
    try {
      const pending = (await this.sdkClient()).models.list(signal === undefined ? {} : { signal });
      const body = await this.bodyText(pending, signal);
      const models = parseModelListing(body, overrides);
      for (const model of models) {
        if (model.contextLength !== undefined)
          this.listedWindows.set(model.id, model.contextLength);
      }
      return models;
    } catch (error) {
      throw toListingError(error, this.settings.providerName, this.settings.apiKey, signal);
    }
  }

  /** The context window of `model` when known (override, listing, table); else `undefined`. */
  override contextLength(model: string): number | undefined {
    const overrides = this.settings.options.modelLimitOverrides ?? {};
    return knownContextLength(model, overrides, this.listedWindows);
  }
}
