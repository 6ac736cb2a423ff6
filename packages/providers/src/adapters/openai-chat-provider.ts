/**
 * `openai-chat`: the OpenAI Chat Completions adapter, and with it every OpenAI-compatible
 * endpoint (OpenRouter, vLLM, llama.cpp, Ollama, …), on the official `openai` SDK.
 */
import type { AdapterOptions } from './adapter-options.js';
import { readChatCompletion } from './openai-chat-completion.js';
import {
  type ChatRequestOptions,
  toChatJsonBody,
  toChatStreamBody,
} from './openai-chat-request.js';
import { ChatStreamReader } from './openai-chat-stream.js';
import { type AnswerContext, OpenAIProviderBase } from './openai-provider-base.js';
import type { WireIdentity } from './openai-shared.js';

/** The adapter name of {@link OpenAIChatProvider}. */
export const OPENAI_CHAT_PROVIDER_NAME = 'openai-chat';

/**
 * A {@link ModelProvider} speaking OpenAI Chat Completions (`POST {baseUrl}/chat/completions`).
 *
 * ```ts
 * const provider = new OpenAIChatProvider({ apiKey, baseUrl: 'https://openrouter.ai/api/v1', providerName: 'openrouter' });
 * const response = await provider.chat({ model: 'openai/gpt-4.1', messages }, { signal, onEvent });
 * ```
 *
 * Streams with `stream_options.include_usage` unless `request.stream === false`. Reasoning from
 * `reasoning_content` / `reasoning` becomes reasoning events; split and interleaved tool calls are
 * reassembled by index; usage counts cache reads apart from fresh input. See
 * `openai-chat-request.ts` for what is sent and `OpenAIProviderBase` for errors and aborts.
 */
export class OpenAIChatProvider extends OpenAIProviderBase {
  readonly name = OPENAI_CHAT_PROVIDER_NAME;

  /** @throws ValidationError when `options` are malformed (e.g. a `baseUrl` that is not a URL). */
  constructor(options: AdapterOptions) {
    super(options, OPENAI_CHAT_PROVIDER_NAME);
  }

  private requestOptions(): ChatRequestOptions {
    const overrides = this.settings.options.modelLimitOverrides;
    return overrides === undefined
      ? { openRouter: this.openRouter }
      : { openRouter: this.openRouter, modelLimitOverrides: overrides };
  }

  protected async streamAnswer({ request, acc, watchdog }: AnswerContext): Promise<WireIdentity> {
    const body = toChatStreamBody(request, this.requestOptions());
    const reader = new ChatStreamReader(acc);
    const stream = (await this.sdkClient()).chat.completions.create(body, {
      signal: watchdog.signal,
    });
    await this.consume(stream, watchdog, (chunk) => reader.feed(chunk));
    return reader.end();
  }

  protected async jsonAnswer({ request, acc, watchdog }: AnswerContext): Promise<WireIdentity> {
    const body = toChatJsonBody(request, this.requestOptions());
    const pending = (await this.sdkClient()).chat.completions.create(body, {
      signal: watchdog.signal,
    });
    const text = await this.bodyText(pending, watchdog.signal);
    return readChatCompletion(text, acc);
  }
}
