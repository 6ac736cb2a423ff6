/**
 * A Hermes {@link ChatRequest} → a Responses API request body.
 *
 * - `store: false`: Hermes keeps the conversation itself and resends it every turn, so nothing
 *   needs to live on OpenAI's side. For the same reason reasoning models are asked for
 *   `reasoning.encrypted_content`, which is what makes their reasoning replayable statelessly.
 * - Tools are Responses function tools, `strict: false` unless the schema opts in: Hermes tool
 *   schemas have optional properties, which strict mode rejects.
 * - `reasoning: {effort, summary: 'auto'}` when the request sets an effort (summaries are what
 *   the Responses API exposes of the reasoning); `none` is dropped where unsupported.
 * - The output limit is `max_output_tokens` (the model's known limit when the request names none).
 */
import type { ToolSchema } from '@hermes/protocol';
import type {
  FunctionTool,
  ResponseCreateParamsNonStreaming,
  ResponseCreateParamsStreaming,
  ResponseIncludable,
  ToolChoiceFunction,
  ToolChoiceOptions,
} from 'openai/resources/responses/responses';
import type { ChatRequest, ToolChoice } from '../chat-request.js';
import type { AdapterOptions } from './adapter-options.js';
import { toResponsesInput } from './openai-responses-input.js';
import { defaultMaxOutputTokens, effortFor, isOpenAIReasoningModel } from './openai-shared.js';

function toResponsesTool(tool: ToolSchema): FunctionTool {
  const { name, description, parameters, strict } = tool.function;
  return { type: 'function', name, description, parameters, strict: strict ?? false };
}

function toResponsesToolChoice(choice: ToolChoice): ToolChoiceOptions | ToolChoiceFunction {
  return typeof choice === 'string' ? choice : { type: 'function', name: choice.name };
}

/** What both body forms share. */
type CommonFields = Omit<ResponseCreateParamsNonStreaming, 'stream'>;

function commonFields(
  request: ChatRequest,
  overrides: AdapterOptions['modelLimitOverrides'],
): CommonFields {
  const { instructions, input } = toResponsesInput(request.messages);
  const body: CommonFields = { model: request.model, input, store: false };
  if (instructions !== undefined) body.instructions = instructions;
  const tools = request.tools ?? [];
  if (tools.length > 0) {
    body.tools = tools.map(toResponsesTool);
    if (request.toolChoice !== undefined)
      body.tool_choice = toResponsesToolChoice(request.toolChoice);
  }
  const maxTokens = defaultMaxOutputTokens(request, overrides);
  if (maxTokens !== undefined) body.max_output_tokens = maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  const effort = effortFor(request);
  if (effort !== undefined) {
    body.reasoning = effort === 'none' ? { effort } : { effort, summary: 'auto' };
  }
  if (isOpenAIReasoningModel(request.model)) {
    const include: ResponseIncludable[] = ['reasoning.encrypted_content'];
    body.include = include;
  }
  return body;
}

/** The streaming body. */
export function toResponsesStreamBody(
  request: ChatRequest,
  overrides: AdapterOptions['modelLimitOverrides'],
): ResponseCreateParamsStreaming {
  return { ...commonFields(request, overrides), stream: true };
}

/** The non-streaming body. */
export function toResponsesJsonBody(
  request: ChatRequest,
  overrides: AdapterOptions['modelLimitOverrides'],
): ResponseCreateParamsNonStreaming {
  return { ...commonFields(request, overrides), stream: false };
}
