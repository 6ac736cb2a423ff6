/**
 * `AnthropicMessagesProvider` (`anthropic-messages`): the {@link ModelProvider} for Anthropic's
 * Messages API (`POST /v1/messages`) and servers that speak it, on the official
 * `@anthropic-ai/sdk`. The pieces live in the other `anthropic-*` files: request building
 * (conversation, cache breakpoints, thinking), the event reader, the error shaping.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { HermesError } from '@hermes/protocol';
import { throwIfAborted } from '../abort.js';
import type { ChatOptions, ChatRequest } from '../chat-request.js';
import type { ChatResponse } from '../chat-response.js';
import type { ModelInfo } from '../model-info.js';
import { type ListModelsOptions, ModelProvider } from '../model-provider.js';
import { abortable, raceAbort } from '../stream/abortable.js';
import { AbortedWithPartialError } from '../stream/interruption.js';
import { StreamAccumulator } from '../stream/response-builder.js';
import { StaleStreamWatchdog } from '../stream/stale-watchdog.js';
import { createAnthropicClient } from './anthropic-client.js';
import { asProtocolError, callFailure } from './anthropic-errors.js';
import { readMessageBody } from './anthropic-message-response.js';
import { knownLimits, type ListedLimits, modelInfoOf } from './anthropic-models.js';
import {
  ANTHROPIC_MESSAGES_NAME,
  type AnthropicMessagesOptions,
  type ResolvedAnthropicOptions,
  resolveAnthropicOptions,
} from './anthropic-options.js';
import { type AnthropicRequestBody, buildAnthropicRequest } from './anthropic-request.js';
import { AnthropicStreamReader } from './anthropic-stream-reader.js';

/** Page size asked of `GET /v1/models` (the API's maximum), so most accounts need one page. */
const MODEL_PAGE_SIZE = 1000;

/** Characters per token of the rough prompt estimate the error classifier gets. */
const CHARS_PER_TOKEN = 4;

/**
 * The Anthropic Messages adapter.
 *
 * - Streams (`request.stream`) with raw SSE events, each event resetting the stale-stream
 *   watchdog (`staleTimeoutMs`); a non-streamed call is bounded by `requestTimeoutMs` in all.
 *   Both paths feed one {@link StreamAccumulator}, so `onEvent` sees the same shapes either way.
 * - Rejects within moments of the caller's abort with `AbortedWithPartialError` (keeping the text
 *   streamed so far), with `StreamTimeoutError` when the stream went stale, and otherwise with a
 *   classified `ProviderError` that never contains the API key.
 * - Never retries: the SDK's retries are off, retrying is the host's decision.
 * - Visible text passes the accumulator's think-block scrubber: Anthropic itself sends thinking
 *   as separate blocks, but some servers speaking its protocol inline `<think>` in the text.
 *
 * @example
 * ```ts
 * const provider = new AnthropicMessagesProvider({ apiKey: process.env.ANTHROPIC_API_KEY ?? '' });
 * const response = await provider.chat(
 *   { model: 'claude-sonnet-4-5', messages, stream: true },
 *   { signal, onEvent: (event) => render(event) },
 * );
 * ```
 */
export class AnthropicMessagesProvider extends ModelProvider {
  readonly name = ANTHROPIC_MESSAGES_NAME;
  private readonly options: ResolvedAnthropicOptions;
  #client: Promise<Anthropic> | undefined;
  /** What the last listing said about each model, for {@link contextLength}. */
  private readonly listed = new Map<string, ListedLimits>();

  /** @throws ValidationError when an option is invalid (the message never holds the key). */
  constructor(options: AnthropicMessagesOptions) {
    super();
    this.options = resolveAnthropicOptions(options);
  }

  /** The SDK client, created (and the SDK imported) on first use. */
  private sdkClient(): Promise<Anthropic> {
    this.#client ??= createAnthropicClient(this.options);
    return this.#client;
  }

  /**
   * One Messages call, streamed when `request.stream` is set; see the class comment for the
   * failure modes. The request is never mutated.
   */
  async chat(request: ChatRequest, options: ChatOptions = {}): Promise<ChatResponse> {
    const { signal } = options;
    if (signal?.aborted === true) throw new AbortedWithPartialError('', { cause: signal.reason });
    const body = buildAnthropicRequest(request, this.options);
    const acc = new StreamAccumulator({ onEvent: options.onEvent });
    const reader = new AnthropicStreamReader(acc);
    const streaming = request.stream === true;
    const watchdog = new StaleStreamWatchdog({
      timeoutMs: streaming ? this.options.staleTimeoutMs : this.options.requestTimeoutMs,
      signal,
    });
    try {
      if (streaming) await this.streamInto(body, reader, watchdog);
      else await this.fetchInto(body, reader, watchdog);
      return acc.build({
        model: reader.model ?? request.model,
        provider: this.options.providerName,
        responseId: reader.responseId,
      });
    } catch (error) {
      acc.abandon();
      throw this.failure(error, request, body, {
        signal,
        watchdog,
        partialText: acc.partialText(),
      });
    } finally {
      watchdog.stop();
    }
  }

  /**
   * Every model of `GET /v1/models` (all pages), with the limits Hermes knows for each; what the
   * listing reports is remembered for {@link contextLength}. Entries without an id are skipped.
   */
  override async listModels(options: ListModelsOptions = {}): Promise<ModelInfo[]> {
    const { signal } = options;
    throwIfAborted(signal);
    const models: ModelInfo[] = [];
    try {
      const pages = (await this.sdkClient()).models.list(
        { limit: MODEL_PAGE_SIZE },
        signal === undefined ? {} : { signal },
      );
      for await (const raw of pages) {
        const entry = modelInfoOf(raw, this.options.modelLimitOverrides);
        if (entry === undefined) continue;
        this.listed.set(entry.info.id, entry.listed);
        models.push(entry.info);
      }
      return models;
    } catch (error) {
      throw callFailure(error, {
        classify: { provider: this.options.providerName, model: '' },
        apiKey: this.options.apiKey,
        callerSignal: signal,
        watchdog: undefined,
        partialText: '',
      });
    }
  }

  /**
   * The context window of `model`: a config override, else what `listModels` reported, else the
   * built-in table; `undefined` for a model none of them knows.
   */
  override contextLength(model: string): number | undefined {
    return knownLimits(model, this.options.modelLimitOverrides, this.listed.get(model))
      .contextLength;
  }

  /** Streams the answer: raw SSE events, each one resetting the watchdog. */
  private async streamInto(
    body: AnthropicRequestBody,
    reader: AnthropicStreamReader,
    watchdog: StaleStreamWatchdog,
  ): Promise<void> {
    const signal = watchdog.signal;
    const stream = await raceAbort(
      (await this.sdkClient()).messages.create({ ...body, stream: true }, { signal }),
      signal,
    );
    try {
      for await (const event of abortable(stream, signal)) {
        watchdog.touch();
        reader.handle(event);
      }
    } catch (error) {
      throw asProtocolError(error, 'stream');
    }
    reader.assertComplete();
  }

  /** Asks for the whole `Message` at once and reads it through the same reader. */
  private async fetchInto(
    body: AnthropicRequestBody,
    reader: AnthropicStreamReader,
    watchdog: StaleStreamWatchdog,
  ): Promise<void> {
    const signal = watchdog.signal;
    const message: unknown = await raceAbort(
      (await this.sdkClient()).messages.create({ ...body, stream: false }, { signal }),
      signal,
    ).catch((error: unknown) => {
      throw asProtocolError(error, 'body');
    });
    readMessageBody(reader, message);
  }

  private failure(
    error: unknown,
    request: ChatRequest,
    body: AnthropicRequestBody,
    call: { signal: AbortSignal | undefined; watchdog: StaleStreamWatchdog; partialText: string },
  ): HermesError {
    const contextLength = this.contextLength(request.model);
    return callFailure(error, {
      classify: {
        provider: this.options.providerName,
        model: request.model,
        messageCount: request.messages.length,
        approxPromptTokens: Math.ceil(JSON.stringify(body).length / CHARS_PER_TOKEN),
        ...(contextLength === undefined ? {} : { contextLength }),
      },
      apiKey: this.options.apiKey,
      callerSignal: call.signal,
      watchdog: call.watchdog,
      partialText: call.partialText,
    });
  }
}
