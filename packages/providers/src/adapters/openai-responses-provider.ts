/**
 * `openai-responses`: the OpenAI Responses API adapter (`POST {baseUrl}/responses`), on the
 * official `openai` SDK — the protocol of OpenAI's reasoning and codex models.
 */
import type { AdapterOptions } from './adapter-options.js';
import { type AnswerContext, OpenAIProviderBase } from './openai-provider-base.js';
import { readResponsesJson } from './openai-responses-json.js';
import { toResponsesJsonBody, toResponsesStreamBody } from './openai-responses-request.js';
import { ResponsesStreamReader } from './openai-responses-stream.js';
import type { WireIdentity } from './openai-shared.js';

/** The adapter name of {@link OpenAIResponsesProvider}. */
export const OPENAI_RESPONSES_PROVIDER_NAME = 'openai-responses';

/**
 * A {@link ModelProvider} speaking the OpenAI Responses API.
 *
 * ```ts
 * const provider = new OpenAIResponsesProvider({ apiKey: process.env.OPENAI_API_KEY ?? '' });
 * const response = await provider.chat({ model: 'gpt-5', messages, reasoning: { effort: 'low' } });
 * ```
 *
 * The system prompt goes out as `instructions`, the conversation as input items (tool calls as
 * `function_call` items, results as `function_call_output`), with `store: false`. Reasoning
 * summaries become reasoning events; reasoning items are kept in `reasoning_details` (with their
 * encrypted content) and replayed on the next turn. See `openai-responses-request.ts` and
 * `openai-responses-input.ts` for what is sent, `OpenAIProviderBase` for errors and aborts.
 */
export class OpenAIResponsesProvider extends OpenAIProviderBase {
  readonly name = OPENAI_RESPONSES_PROVIDER_NAME;

  /** @throws ValidationError when `options` are malformed (e.g. a `baseUrl` that is not a URL). */
  constructor(options: AdapterOptions) {
    super(options, OPENAI_RESPONSES_PROVIDER_NAME);
  }

  protected async streamAnswer({ request, acc, watchdog }: AnswerContext): Promise<WireIdentity> {
    const body = toResponsesStreamBody(request, this.settings.options.modelLimitOverrides);
    const reader = new ResponsesStreamReader(acc);
    const stream = (await this.sdkClient()).responses.create(body, { signal: watchdog.signal });
    await this.consume(stream, watchdog, (event) => reader.feed(event));
    return reader.end();
  }

  protected async jsonAnswer({ request, acc, watchdog }: AnswerContext): Promise<WireIdentity> {
    const body = toResponsesJsonBody(request, this.settings.options.modelLimitOverrides);
    const pending = (await this.sdkClient()).responses.create(body, { signal: watchdog.signal });
    const text = await this.bodyText(pending, watchdog.signal);
    return readResponsesJson(text, acc);
  }
}
