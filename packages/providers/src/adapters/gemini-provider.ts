/**
 * `GeminiProvider` (`gemini`): the {@link ModelProvider} for Google's native Gemini API
 * (`generateContent` and `streamGenerateContent?alt=sse`), over the documented REST wire with
 * `fetch` (Node's own, undici; `AdapterOptions.fetch` replaces it). The official SDK is not used:
 * its releases need Node 22. The pieces live in the other `gemini-*` files: request building
 * (conversation, schema cleaning, thinking), the SSE reader, the response reader, the errors.
 */
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
import { knownLimits, type ListedLimits } from './anthropic-models.js';
import { GeminiHttpError, GeminiProtocolError, geminiCallFailure } from './gemini-errors.js';
import { geminiModelInfoOf, WireModelPageSchema } from './gemini-models.js';
import {
  GEMINI_API_VERSION,
  GEMINI_PROVIDER_NAME,
  type GeminiOptions,
  type ResolvedGeminiOptions,
  resolveGeminiOptions,
} from './gemini-options.js';
import { buildGeminiRequest, type GeminiRequestBody } from './gemini-request.js';
import { sseDataFrames } from './gemini-sse.js';
import { GeminiStreamReader } from './gemini-stream-reader.js';

export { GEMINI_PROVIDER_NAME } from './gemini-options.js';

/** Characters per token of the rough prompt estimate the error classifier gets. */
const CHARS_PER_TOKEN = 4;

/** Page size asked of `GET /v1beta/models` (the API's maximum), so one page usually does. */
const MODEL_PAGE_SIZE = 1000;

/** Pages read at most: a bound against a listing whose page token never ends. */
const MAX_MODEL_PAGES = 20;

/**
 * The Gemini adapter.
 *
 * - Streams (`request.stream`) over SSE, each frame resetting the stale-stream watchdog
 *   (`staleTimeoutMs`); a non-streamed call is bounded by `requestTimeoutMs` in all. Both paths
 *   feed one {@link StreamAccumulator}, so `onEvent` sees the same shapes either way.
 * - The key travels in the `x-goog-api-key` header, never in the URL, so it cannot reach a log
 *   line that prints URLs.
 * - A safety stop (`finishReason` SAFETY, PROHIBITED_CONTENT, BLOCKLIST, …) or a blocked prompt
 *   (`promptFeedback.blockReason`) resolves with finish reason `content_filter`, as the other
 *   adapters report a policy stop.
 * - Rejects within moments of the caller's abort with `AbortedWithPartialError` (keeping the text
 *   streamed so far), with `StreamTimeoutError` when the stream went stale, and otherwise with a
 *   classified `ProviderError` that never contains the API key. Never retries.
 *
 * @example
 * ```ts
 * const provider = new GeminiProvider({ apiKey: process.env.GEMINI_API_KEY ?? '' });
 * const response = await provider.chat(
 *   { model: 'gemini-2.5-flash', messages, stream: true },
 *   { signal, onEvent: (event) => render(event) },
 * );
 * ```
 */
export class GeminiProvider extends ModelProvider {
  readonly name = GEMINI_PROVIDER_NAME;
  private readonly options: ResolvedGeminiOptions;
  /** What the last listing said about each model, for {@link contextLength}. */
  private readonly listed = new Map<string, ListedLimits>();

  /** @throws ValidationError when an option is invalid (the message never holds the key). */
  constructor(options: GeminiOptions) {
    super();
    this.options = resolveGeminiOptions(options);
  }

  /**
   * One `generateContent` call, streamed when `request.stream` is set; see the class comment for
   * the failure modes. The request is never mutated.
   */
  async chat(request: ChatRequest, options: ChatOptions = {}): Promise<ChatResponse> {
    const { signal } = options;
    if (signal?.aborted === true) throw new AbortedWithPartialError('', { cause: signal.reason });
    const body = buildGeminiRequest(request);
    const acc = new StreamAccumulator({ onEvent: options.onEvent });
    const reader = new GeminiStreamReader(acc);
    const streaming = request.stream === true;
    const watchdog = new StaleStreamWatchdog({
      timeoutMs: streaming ? this.options.staleTimeoutMs : this.options.requestTimeoutMs,
      signal,
    });
    try {
      const response = await this.post(request.model, body, streaming, watchdog.signal);
      if (streaming) await this.readStream(response, reader, watchdog);
      else reader.handleText(await raceAbort(response.text(), watchdog.signal), 'body');
      reader.assertComplete();
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
   * Every model of `GET /v1beta/models` (all pages) that can `generateContent`, with the limits
   * Hermes knows for each; what the listing reports is remembered for {@link contextLength}.
   */
  override async listModels(options: ListModelsOptions = {}): Promise<ModelInfo[]> {
    const { signal } = options;
    throwIfAborted(signal);
    const models: ModelInfo[] = [];
    try {
      let token: string | undefined;
      for (let page = 0; page < MAX_MODEL_PAGES; page++) {
        const { models: entries, nextPageToken } = await this.modelPage(token, signal);
        for (const raw of entries ?? []) {
          const entry = geminiModelInfoOf(raw, this.options.modelLimitOverrides);
          if (entry === undefined) continue;
          this.listed.set(entry.info.id, entry.listed);
          models.push(entry.info);
        }
        if (!nextPageToken) break;
        token = nextPageToken;
      }
      return models;
    } catch (error) {
      throw geminiCallFailure(error, {
        classify: { provider: this.options.providerName, model: '' },
        apiKey: this.options.apiKey,
        callerSignal: signal,
        watchdog: undefined,
        partialText: '',
      });
    }
  }

  /**
   * The context window of `model`: a config override, else what `listModels` reported, else
   * the built-in table; `undefined` for a model none of them knows.
   */
  override contextLength(model: string): number | undefined {
    const id = model.replace(/^models\//, '');
    return knownLimits(id, this.options.modelLimitOverrides, this.listed.get(id)).contextLength;
  }

  /** One page of the model listing. */
  private async modelPage(token: string | undefined, signal: AbortSignal | undefined) {
    const query = new URLSearchParams({ pageSize: String(MODEL_PAGE_SIZE) });
    if (token !== undefined) query.set('pageToken', token);
    const url = `${this.options.baseUrl}/${GEMINI_API_VERSION}/models?${query}`;
    const response = await raceAbort(
      this.options.fetch(url, {
        headers: { ...this.options.defaultHeaders, 'x-goog-api-key': this.options.apiKey },
        ...(signal === undefined ? {} : { signal }),
      }),
      signal,
    );
    const text = await raceAbort(response.text(), signal);
    if (!response.ok) throw new GeminiHttpError(response.status, response.headers, text);
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw new GeminiProtocolError('The Gemini model listing is not JSON.', { cause: error });
    }
    const page = WireModelPageSchema.safeParse(raw);
    return page.success ? page.data : { models: [], nextPageToken: undefined };
  }

  /** `POST …/models/{model}:{operation}`; an HTTP error status becomes a {@link GeminiHttpError}. */
  private async post(
    model: string,
    body: GeminiRequestBody,
    streaming: boolean,
    signal: AbortSignal,
  ): Promise<Response> {
    // Gemini's own ids may carry a `models/` prefix (as its listing returns them).
    const id = encodeURIComponent(model.replace(/^models\//, ''));
    const operation = streaming ? 'streamGenerateContent?alt=sse' : 'generateContent';
    const url = `${this.options.baseUrl}/${GEMINI_API_VERSION}/models/${id}:${operation}`;
    const response = await raceAbort(
      this.options.fetch(url, {
        method: 'POST',
        headers: {
          ...this.options.defaultHeaders,
          'content-type': 'application/json',
          'x-goog-api-key': this.options.apiKey,
        },
        body: JSON.stringify(body),
        signal,
      }),
      signal,
    );
    if (response.ok) return response;
    const text = await raceAbort(response.text(), signal);
    throw new GeminiHttpError(response.status, response.headers, text);
  }

  /** Reads the SSE frames as they arrive, each one resetting the watchdog. */
  private async readStream(
    response: Response,
    reader: GeminiStreamReader,
    watchdog: StaleStreamWatchdog,
  ): Promise<void> {
    if (response.body === null) {
      throw new GeminiProtocolError('The Gemini API answered a stream request with no body.');
    }
    for await (const data of abortable(sseDataFrames(response.body), watchdog.signal)) {
      watchdog.touch();
      reader.handleText(data, 'stream');
    }
  }

  private failure(
    error: unknown,
    request: ChatRequest,
    body: GeminiRequestBody,
    call: { signal: AbortSignal | undefined; watchdog: StaleStreamWatchdog; partialText: string },
  ): HermesError {
    const contextLength = this.contextLength(request.model);
    return geminiCallFailure(error, {
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
