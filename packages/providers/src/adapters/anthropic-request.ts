/**
 * A {@link ChatRequest} as the body of `POST /v1/messages`: conversation, `max_tokens` (which
 * Anthropic requires), tools, tool choice, thinking, temperature and the cache breakpoints.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { ToolSchema } from '@hermes/protocol';
import type { ChatRequest, ToolChoice } from '../chat-request.js';
import { type ModelLimitOverrides, resolveModelLimits } from '../models/model-limits.js';
import { applyPromptCaching } from './anthropic-cache-control.js';
import { toAnthropicConversation } from './anthropic-messages-input.js';
import type { PromptCacheTtl } from './anthropic-options.js';
import { forcesToolUse, thinkingConfig } from './anthropic-thinking.js';

/** What the request body depends on beyond the request itself. */
export interface AnthropicRequestSettings {
  readonly modelLimitOverrides: ModelLimitOverrides;
  readonly promptCaching: boolean;
  readonly promptCacheTtl: PromptCacheTtl;
}

/**
 * A Messages request body without its `stream` flag (the caller adds it). `temperature` is
 * added by hand: the API takes it, but this SDK release no longer declares it.
 */
export type AnthropicRequestBody = Omit<Anthropic.MessageCreateParamsNonStreaming, 'stream'> & {
  temperature?: number;
};

/** A function tool as an Anthropic custom tool; `input_schema` must be an object schema. */
export function anthropicTool(tool: ToolSchema): Anthropic.Tool {
  const { name, description, parameters } = tool.function;
  return {
    name,
    ...(description === '' ? {} : { description }),
    input_schema: { ...parameters, type: 'object' },
  };
}

/** Hermes' tool choice in Anthropic's words: `required` is `any`, a named function is `tool`. */
export function anthropicToolChoice(choice: ToolChoice): Anthropic.ToolChoice {
  if (choice === 'auto') return { type: 'auto' };
  if (choice === 'none') return { type: 'none' };
  if (choice === 'required') return { type: 'any' };
  return { type: 'tool', name: choice.name };
}

/**
 * `max_tokens`: the request's own bound, else the model's largest output (from the config
 * overrides, the built-in table, or the conservative default), since the API requires one.
 */
export function maxTokensFor(request: ChatRequest, overrides: ModelLimitOverrides): number {
  return request.maxOutputTokens ?? resolveModelLimits(request.model, overrides).maxOutputTokens;
}

function toolFields(request: ChatRequest): Pick<AnthropicRequestBody, 'tools' | 'tool_choice'> {
  const tools = request.tools ?? [];
  if (tools.length === 0) return {};
  return {
    tools: tools.map(anthropicTool),
    ...(request.toolChoice === undefined
      ? {}
      : { tool_choice: anthropicToolChoice(request.toolChoice) }),
  };
}

/**
 * Builds the body. With thinking on, `temperature` is left out: the API accepts thinking only at
 * its default sampling and rejects the request otherwise, and a thinking model asked to think is
 * the caller's stronger intent.
 */
export function buildAnthropicRequest(
  request: ChatRequest,
  settings: AnthropicRequestSettings,
): AnthropicRequestBody {
  const conversation = toAnthropicConversation(request.messages);
  if (settings.promptCaching) applyPromptCaching(conversation, settings.promptCacheTtl);
  const maxTokens = maxTokensFor(request, settings.modelLimitOverrides);
  const hasTools = (request.tools?.length ?? 0) > 0;
  const thinking = thinkingConfig(
    request.reasoning?.effort,
    maxTokens,
    hasTools && forcesToolUse(request.toolChoice),
  );
  return {
    model: request.model,
    max_tokens: maxTokens,
    ...(conversation.system.length === 0 ? {} : { system: conversation.system }),
    messages: conversation.messages,
    ...toolFields(request),
    ...(thinking === undefined ? {} : { thinking }),
    ...(thinking !== undefined || request.temperature === undefined
      ? {}
      : { temperature: request.temperature }),
  };
}
