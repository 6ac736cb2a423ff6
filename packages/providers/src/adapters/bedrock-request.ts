/**
 * A {@link ChatRequest} as the input of `Converse` / `ConverseStream`: model id, conversation,
 * system blocks, `inferenceConfig` (max tokens, temperature), `toolConfig`, and for Anthropic's
 * Claude models the reasoning effort as a thinking budget (`additionalModelRequestFields`).
 */
import type {
  ToolChoice as BedrockToolChoice,
  ConverseStreamCommandInput,
  InferenceConfiguration,
  Tool,
  ToolConfiguration,
} from '@aws-sdk/client-bedrock-runtime';
import type { ToolSchema } from '@hermes/protocol';
import type { ChatRequest, ToolChoice } from '../chat-request.js';
import { type ModelLimitOverrides, resolveModelLimits } from '../models/model-limits.js';
import { forcesToolUse, thinkingConfig } from './anthropic-thinking.js';
import { toBedrockConversation } from './bedrock-messages.js';

/** The input both commands share (`ConverseCommandInput` has the same fields). */
export type BedrockConverseInput = ConverseStreamCommandInput;

/** A function tool as a Converse `toolSpec` (its JSON schema goes in `inputSchema.json`). */
export function bedrockTool(tool: ToolSchema): Tool {
  const { name, description, parameters } = tool.function;
  return {
    toolSpec: {
      name,
      ...(description === '' ? {} : { description }),
      inputSchema: { json: { ...parameters, type: 'object' } },
    },
  };
}

/**
 * Hermes' tool choice in Converse's words: `required` is `any`, a named function is `tool`.
 * Converse has no "none": `undefined` leaves the model free (`auto`), since the tools must
 * still be declared whenever the conversation holds tool calls or results.
 */
export function bedrockToolChoice(choice: ToolChoice): BedrockToolChoice | undefined {
  if (choice === 'auto' || choice === 'none') return choice === 'auto' ? { auto: {} } : undefined;
  if (choice === 'required') return { any: {} };
  return { tool: { name: choice.name } };
}

function toolConfig(request: ChatRequest): ToolConfiguration | undefined {
  const tools = request.tools ?? [];
  if (tools.length === 0) return undefined;
  const choice =
    request.toolChoice === undefined ? undefined : bedrockToolChoice(request.toolChoice);
  return { tools: tools.map(bedrockTool), ...(choice === undefined ? {} : { toolChoice: choice }) };
}

/**
 * Claude on Bedrock, by model id or inference profile (`anthropic.claude-…`,
 * `us.anthropic.claude-…`, an ARN naming one): the models that take Anthropic's `thinking`.
 */
const CLAUDE_MODEL = /(?:^|[.:/])anthropic\.claude-/;

/** Claude's thinking parameter for the request, or `undefined` (see `thinkingConfig`). */
function claudeThinking(request: ChatRequest, maxTokens: number) {
  if (request.reasoning === undefined || !CLAUDE_MODEL.test(request.model)) return undefined;
  const forced = (request.tools?.length ?? 0) > 0 && forcesToolUse(request.toolChoice);
  return thinkingConfig(request.reasoning.effort, maxTokens, forced);
}

/**
 * Sampling and length. `maxTokens` is sent when the request bounds it, or when thinking needs a
 * bound to fit its budget under; otherwise Converse applies the model's default (it does not
 * require one). With thinking on, temperature is left out: Claude thinks only at its default.
 */
function inferenceConfig(request: ChatRequest, thinking: boolean, maxTokens: number) {
  const config: InferenceConfiguration = {
    ...(request.maxOutputTokens === undefined && !thinking ? {} : { maxTokens }),
    ...(request.temperature === undefined || thinking ? {} : { temperature: request.temperature }),
  };
  return Object.keys(config).length === 0 ? undefined : config;
}

/** Builds the command input; `overrides` are the configured model limits. */
export function buildBedrockRequest(
  request: ChatRequest,
  overrides: ModelLimitOverrides = {},
): BedrockConverseInput {
  const conversation = toBedrockConversation(request.messages);
  const maxTokens =
    request.maxOutputTokens ?? resolveModelLimits(request.model, overrides).maxOutputTokens;
  const thinking = claudeThinking(request, maxTokens);
  const inference = inferenceConfig(request, thinking !== undefined, maxTokens);
  const tools = toolConfig(request);
  return {
    modelId: request.model,
    messages: conversation.messages,
    ...(conversation.system.length === 0 ? {} : { system: conversation.system }),
    ...(inference === undefined ? {} : { inferenceConfig: inference }),
    ...(tools === undefined ? {} : { toolConfig: tools }),
    ...(thinking === undefined
      ? {}
      : {
          additionalModelRequestFields: {
            thinking: { type: thinking.type, budget_tokens: thinking.budget_tokens },
          },
        }),
  };
}
