/**
 * A Hermes {@link ChatRequest} → a Chat Completions request body.
 *
 * Decisions, each for a server that would otherwise reject or misread the request:
 * - Output limit: `max_completion_tokens` for OpenAI's reasoning models (o-series, gpt-5 family,
 *   codex), which reject `max_tokens`; `max_tokens` for everything else, which every
 *   OpenAI-compatible server understands. Without `maxOutputTokens`, the model's known limit is
 *   sent, or nothing for an unknown model (see `defaultMaxOutputTokens`).
 * - Reasoning: OpenRouter gets `reasoning: {effort}`, everyone else `reasoning_effort`; effort
 *   `none` is left out for models that do not accept it.
 * - Tools go out as given (`strict` only when the schema sets it); `tool_choice` only with tools.
 * - Streaming asks for `stream_options.include_usage`, so the last chunk carries usage.
 * - `metadata` is not sent: OpenAI accepts it only with stored completions, and compatible
 *   servers reject it.
 */
import type { ToolSchema } from '@hermes/protocol';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions';
import type { ChatRequest, ReasoningEffort, ToolChoice } from '../chat-request.js';
import type { AdapterOptions } from './adapter-options.js';
import { toChatMessages } from './openai-chat-messages.js';
import { defaultMaxOutputTokens, effortFor, isOpenAIReasoningModel } from './openai-shared.js';

/** The OpenRouter reasoning knob, sent instead of `reasoning_effort`. */
interface OpenRouterReasoning {
  readonly reasoning?: { readonly effort: ReasoningEffort };
}

/** A streaming request body, with OpenRouter's extra field where it applies. */
export type ChatStreamBody = ChatCompletionCreateParamsStreaming & OpenRouterReasoning;
/** A non-streaming request body, with OpenRouter's extra field where it applies. */
export type ChatJsonBody = ChatCompletionCreateParamsNonStreaming & OpenRouterReasoning;

/** Endpoint traits that change the request. */
export interface ChatRequestOptions {
  /** The endpoint is OpenRouter (reasoning knob, reasoning-details replay). */
  readonly openRouter: boolean;
  readonly modelLimitOverrides?: AdapterOptions['modelLimitOverrides'];
}

function toChatTool(tool: ToolSchema): ChatCompletionFunctionTool {
  const { name, description, parameters, strict } = tool.function;
  return {
    type: 'function',
    function:
      strict === undefined
        ? { name, description, parameters }
        : { name, description, parameters, strict },
  };
}

function toChatToolChoice(choice: ToolChoice): ChatCompletionToolChoiceOption {
  return typeof choice === 'string'
    ? choice
    : { type: 'function', function: { name: choice.name } };
}

/** The body fields shared by the streaming and the JSON form. */
type CommonFields = Omit<ChatJsonBody, 'stream'>;

function commonFields(request: ChatRequest, options: ChatRequestOptions): CommonFields {
  const body: CommonFields = {
    model: request.model,
    messages: toChatMessages(request.messages, { replayReasoningDetails: options.openRouter }),
  };
  const tools = request.tools ?? [];
  if (tools.length > 0) {
    body.tools = tools.map(toChatTool);
    if (request.toolChoice !== undefined) body.tool_choice = toChatToolChoice(request.toolChoice);
  }
  const maxTokens = defaultMaxOutputTokens(request, options.modelLimitOverrides);
  if (maxTokens !== undefined) {
    if (isOpenAIReasoningModel(request.model)) body.max_completion_tokens = maxTokens;
    else body.max_tokens = maxTokens;
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  const effort = effortFor(request);
  if (effort !== undefined) {
    if (options.openRouter) return { ...body, reasoning: { effort } };
    body.reasoning_effort = effort;
  }
  return body;
}

/** The streaming body: `stream: true` with usage in the last chunk. */
export function toChatStreamBody(
  request: ChatRequest,
  options: ChatRequestOptions,
): ChatStreamBody {
  return {
    ...commonFields(request, options),
    stream: true,
    stream_options: { include_usage: true },
  };
}

/** The non-streaming body. */
export function toChatJsonBody(request: ChatRequest, options: ChatRequestOptions): ChatJsonBody {
  return { ...commonFields(request, options), stream: false };
}
