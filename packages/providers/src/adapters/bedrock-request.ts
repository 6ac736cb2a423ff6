/**
 * A {@link ChatRequest} as the input of `Converse` / `ConverseStream`: model id, conversation,
 * system blocks, `inferenceConfig` (max tokens, temperature) and `toolConfig`.
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

function inferenceConfig(request: ChatRequest): InferenceConfiguration | undefined {
  const config: InferenceConfiguration = {
    ...(request.maxOutputTokens === undefined ? {} : { maxTokens: request.maxOutputTokens }),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
  };
  return Object.keys(config).length === 0 ? undefined : config;
}

/**
 * Builds the command input. `maxTokens` is sent only when the request bounds it: Converse,
 * unlike Anthropic's own API, does not require one and applies the model's default.
 */
export function buildBedrockRequest(request: ChatRequest): BedrockConverseInput {
  const conversation = toBedrockConversation(request.messages);
  const inference = inferenceConfig(request);
  const tools = toolConfig(request);
  return {
    modelId: request.model,
    messages: conversation.messages,
    ...(conversation.system.length === 0 ? {} : { system: conversation.system }),
    ...(inference === undefined ? {} : { inferenceConfig: inference }),
    ...(tools === undefined ? {} : { toolConfig: tools }),
  };
}
