/**
 * The adapter registry: which {@link ModelProvider} class speaks each API mode. `createProvider`
 * looks adapters up here and nowhere else, so a new wire protocol is one new mode, one new
 * adapter, and one new line below — the existing adapters are never touched.
 *
 * Adding one (Bedrock Converse, Gemini, …):
 * 1. add its mode to `ApiModeSchema` (`src/api-mode.ts`), plus any provider name or host that
 *    implies it;
 * 2. write the adapter in its own files, a `ModelProvider` constructed from {@link AdapterOptions}
 *    that rejects with classified `ProviderError`s;
 * 3. register it in {@link ADAPTERS}. The registry's type lists every mode, so the compiler
 *    refuses a mode without an adapter.
 */
import type { ApiMode } from '../api-mode.js';
import type { ModelProvider } from '../model-provider.js';
import type { AdapterOptions } from './adapter-options.js';
import { AnthropicMessagesProvider } from './anthropic-provider.js';
import { BedrockConverseProvider } from './bedrock-provider.js';
import { GeminiProvider } from './gemini-provider.js';
import { OpenAIChatProvider } from './openai-chat-provider.js';
import { OpenAIResponsesProvider } from './openai-responses-provider.js';

export type { AdapterOptions } from './adapter-options.js';
export {
  ANTHROPIC_MESSAGES_NAME,
  type AnthropicMessagesOptions,
  type PromptCacheTtl,
} from './anthropic-options.js';
export { AnthropicMessagesProvider } from './anthropic-provider.js';
export { BEDROCK_CONVERSE_PROVIDER_NAME, BedrockConverseProvider } from './bedrock-provider.js';
export { GEMINI_PROVIDER_NAME, GeminiProvider } from './gemini-provider.js';
export { OPENAI_CHAT_PROVIDER_NAME, OpenAIChatProvider } from './openai-chat-provider.js';
export {
  OPENAI_RESPONSES_PROVIDER_NAME,
  OpenAIResponsesProvider,
} from './openai-responses-provider.js';

/** Builds an adapter from the shared options. */
export type AdapterConstructor = new (options: AdapterOptions) => ModelProvider;

/** One adapter per API mode. */
export type AdapterRegistry = Readonly<Record<ApiMode, AdapterConstructor>>;

/** The built-in adapters by API mode. */
export const ADAPTERS: AdapterRegistry = {
  chat_completions: OpenAIChatProvider,
  codex_responses: OpenAIResponsesProvider,
  anthropic_messages: AnthropicMessagesProvider,
  bedrock_converse: BedrockConverseProvider,
  gemini: GeminiProvider,
};

/** The built-in adapter of `mode`. */
export function adapterFor(mode: ApiMode): AdapterConstructor {
  return ADAPTERS[mode];
}
