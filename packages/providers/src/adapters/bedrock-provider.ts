/**
 * `BedrockConverseProvider` (`bedrock-converse`): the {@link ModelProvider} for Amazon Bedrock's
 * Converse API (`ConverseStream` / `Converse`) on the official `@aws-sdk/client-bedrock-runtime`.
 * The pieces live in the other `bedrock-*` files: options and auth, the client and its transport,
 * the request mapping, the event reader, usage and stop reasons, the error shaping.
 */
import type { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import type { HermesError } from '@hermes/protocol';
import type { ChatOptions, ChatRequest } from '../chat-request.js';
import type { ChatResponse } from '../chat-response.js';
import { ModelProvider } from '../model-provider.js';
import { resolveModelLimits } from '../models/model-limits.js';
import { abortable, raceAbort } from '../stream/abortable.js';
import { AbortedWithPartialError } from '../stream/interruption.js';
import { StreamAccumulator } from '../stream/response-builder.js';
import { StaleStreamWatchdog } from '../stream/stale-watchdog.js';
import { createBedrockClient } from './bedrock-client.js';
import { bedrockCallFailure } from './bedrock-errors.js';
import {
  BEDROCK_CONVERSE_PROVIDER_NAME,
  type BedrockConverseOptions,
  bedrockSecrets,
  type ResolvedBedrockOptions,
  resolveBedrockOptions,
} from './bedrock-options.js';
import { type BedrockConverseInput, buildBedrockRequest } from './bedrock-request.js';
import { BedrockStreamReader, readConverseOutput } from './bedrock-stream-reader.js';

export { BEDROCK_CONVERSE_PROVIDER_NAME } from './bedrock-options.js';

/** Characters per token of the rough prompt estimate the error classifier gets. */
const CHARS_PER_TOKEN = 4;

/**
 * The Bedrock Converse adapter.
 *
 * - Streams (`request.stream`) with `ConverseStream`, each event resetting the stale-stream
 *   watchdog (`staleTimeoutMs`); a non-streamed `Converse` call is bounded by `requestTimeoutMs`.
 *   Both feed one {@link StreamAccumulator}, so `onEvent` sees the same shapes either way.
 * - Rejects within moments of the caller's abort with `AbortedWithPartialError` (keeping the text
 *   streamed so far), with `StreamTimeoutError` when the stream went stale, and otherwise with a
 *   classified `ProviderError` (throttling → `rate_limit`, access denied → `auth`, validation →
 *   `format_error`, an oversized prompt → `context_overflow`) that never holds a secret.
 * - Never retries: the SDK's retries are off, retrying is the host's decision.
 * - Auth: a Bedrock API key as bearer token, else static credentials, else the AWS SDK's
 *   default credential chain (see `BedrockConverseOptions`).
 *
 * @example
 * ```ts
 * const provider = new BedrockConverseProvider({ region: 'us-west-2' });
 * const response = await provider.chat(
 *   { model: 'anthropic.claude-sonnet-4-5-v1:0', messages, stream: true },
 *   { signal, onEvent: (event) => render(event) },
 * );
 * ```
 */
export class BedrockConverseProvider extends ModelProvider {
  readonly name = BEDROCK_CONVERSE_PROVIDER_NAME;
  private readonly options: ResolvedBedrockOptions;
  #client: Promise<BedrockRuntimeClient> | undefined;

  /** @throws ValidationError when an option is invalid (the message never holds a secret). */
  constructor(options: BedrockConverseOptions = {}) {
    super();
    this.options = resolveBedrockOptions(options);
  }

  /** The region requests go to (for descriptions and logs; not a secret). */
  get region(): string {
    return this.options.region;
  }

  /** The SDK client, created (and the SDK imported) on first use. */
  private sdkClient(): Promise<BedrockRuntimeClient> {
    this.#client ??= createBedrockClient(this.options);
    return this.#client;
  }

  /** One Converse call, streamed when `request.stream` is set; never mutates the request. */
  async chat(request: ChatRequest, options: ChatOptions = {}): Promise<ChatResponse> {
    const { signal } = options;
    if (signal?.aborted === true) throw new AbortedWithPartialError('', { cause: signal.reason });
    const input = buildBedrockRequest(request, this.options.modelLimitOverrides);
    const acc = new StreamAccumulator({ onEvent: options.onEvent });
    const reader = new BedrockStreamReader(acc);
    const streaming = request.stream === true;
    const watchdog = new StaleStreamWatchdog({
      timeoutMs: streaming ? this.options.staleTimeoutMs : this.options.requestTimeoutMs,
      signal,
    });
    try {
      const requestId = streaming
        ? await this.streamInto(input, reader, watchdog)
        : await this.fetchInto(input, reader, watchdog);
      return acc.build({
        model: request.model,
        provider: this.options.providerName,
        responseId: requestId,
      });
    } catch (error) {
      acc.abandon();
      throw this.failure(error, request, input, {
        signal,
        watchdog,
        partialText: acc.partialText(),
      });
    } finally {
      watchdog.stop();
    }
  }

  /**
   * The context window of `model`: a config override or the built-in table; `undefined` for a
   * model neither knows (Bedrock lists no limits).
   */
  override contextLength(model: string): number | undefined {
    const limits = resolveModelLimits(model, this.options.modelLimitOverrides);
    return limits.source === 'default' ? undefined : limits.contextWindow;
  }

  /** Releases the client's resources. */
  override async close(): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
    if (client !== undefined) (await client.catch(() => undefined))?.destroy();
  }

  /** Streams the answer; returns the request id. */
  private async streamInto(
    input: BedrockConverseInput,
    reader: BedrockStreamReader,
    watchdog: StaleStreamWatchdog,
  ): Promise<string | undefined> {
    const signal = watchdog.signal;
    const client = await this.sdkClient();
    const { ConverseStreamCommand } = await import('@aws-sdk/client-bedrock-runtime');
    const output = await raceAbort(
      client.send(new ConverseStreamCommand(input), { abortSignal: signal }),
      signal,
    );
    if (output.stream !== undefined) {
      for await (const event of abortable(output.stream, signal)) {
        watchdog.touch();
        reader.handle(event);
      }
    }
    reader.assertComplete();
    return output.$metadata.requestId;
  }

  /** Asks for the whole answer at once and reads it through the same reader. */
  private async fetchInto(
    input: BedrockConverseInput,
    reader: BedrockStreamReader,
    watchdog: StaleStreamWatchdog,
  ): Promise<string | undefined> {
    const signal = watchdog.signal;
    const client = await this.sdkClient();
    const { ConverseCommand } = await import('@aws-sdk/client-bedrock-runtime');
    const output = await raceAbort(
      client.send(new ConverseCommand(input), { abortSignal: signal }),
      signal,
    );
    readConverseOutput(reader, output);
    return output.$metadata.requestId;
  }

  private failure(
    error: unknown,
    request: ChatRequest,
    input: BedrockConverseInput,
    call: { signal: AbortSignal | undefined; watchdog: StaleStreamWatchdog; partialText: string },
  ): HermesError {
    const contextLength = this.contextLength(request.model);
    return bedrockCallFailure(error, {
      classify: {
        provider: this.options.providerName,
        model: request.model,
        messageCount: request.messages.length,
        approxPromptTokens: Math.ceil(JSON.stringify(input).length / CHARS_PER_TOKEN),
        ...(contextLength === undefined ? {} : { contextLength }),
      },
      secrets: bedrockSecrets(this.options),
      callerSignal: call.signal,
      watchdog: call.watchdog,
      partialText: call.partialText,
    });
  }
}
