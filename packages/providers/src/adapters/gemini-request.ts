/**
 * A {@link ChatRequest} as the body of `generateContent` / `streamGenerateContent`: contents and
 * system instruction, function declarations, the function-calling mode, and `generationConfig`
 * (output bound, temperature, thinking).
 */
import type { ToolSchema } from '@hermes/protocol';
import type { ChatRequest, ReasoningEffort, ToolChoice } from '../chat-request.js';
import { type GeminiContent, toGeminiConversation } from './gemini-contents.js';
import { geminiParameters } from './gemini-schema.js';

/** One function declaration. */
export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parameters?: Readonly<Record<string, unknown>>;
}

/** `generationConfig.thinkingConfig`. */
export interface GeminiThinkingConfig {
  thinkingBudget: number;
  includeThoughts: boolean;
}

/** `toolConfig`: how the model may call the declared functions. */
export interface GeminiToolConfig {
  functionCallingConfig: { mode: 'AUTO' | 'ANY' | 'NONE'; allowedFunctionNames?: string[] };
}

/** The request body, as sent. */
export interface GeminiRequestBody {
  contents: GeminiContent[];
  systemInstruction?: { parts: { text: string }[] };
  tools?: { functionDeclarations: GeminiFunctionDeclaration[] }[];
  toolConfig?: GeminiToolConfig;
  generationConfig?: {
    maxOutputTokens?: number;
    temperature?: number;
    thinkingConfig?: GeminiThinkingConfig;
  };
}

/**
 * The thinking budget of each reasoning effort. The same numbers as the Anthropic adapter's,
 * except `xhigh`, capped at 24,576: the largest budget every Gemini 2.5 model accepts (Flash's
 * maximum). `none` is a budget of 0, which turns thinking off where the model allows it.
 */
export const GEMINI_THINKING_BUDGETS: Readonly<Record<ReasoningEffort, number>> = {
  none: 0,
  minimal: 1_024,
  low: 4_000,
  medium: 8_000,
  high: 16_000,
  xhigh: 24_576,
};

/** A function tool as a Gemini declaration, its schema cleaned of what Gemini rejects. */
export function geminiDeclaration(tool: ToolSchema): GeminiFunctionDeclaration {
  const { name, description, parameters } = tool.function;
  const cleaned = geminiParameters(parameters);
  return {
    name,
    ...(description === '' ? {} : { description }),
    ...(cleaned === undefined ? {} : { parameters: cleaned }),
  };
}

/** Hermes' tool choice as Gemini's function-calling mode: `required` is ANY, a name restricts it. */
export function geminiToolConfig(choice: ToolChoice): GeminiToolConfig {
  if (choice === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.name] } };
}

/**
 * `thinkingConfig` for `effort`, or `undefined` (the model's own default) when none is given.
 * Thoughts are asked for whenever thinking is on, so the loop can show them as reasoning.
 */
export function geminiThinking(
  effort: ReasoningEffort | undefined,
): GeminiThinkingConfig | undefined {
  if (effort === undefined) return undefined;
  const thinkingBudget = GEMINI_THINKING_BUDGETS[effort];
  return { thinkingBudget, includeThoughts: thinkingBudget > 0 };
}

function generationConfig(request: ChatRequest): GeminiRequestBody['generationConfig'] {
  const thinking = geminiThinking(request.reasoning?.effort);
  const config = {
    ...(request.maxOutputTokens === undefined ? {} : { maxOutputTokens: request.maxOutputTokens }),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(thinking === undefined ? {} : { thinkingConfig: thinking }),
  };
  return Object.keys(config).length === 0 ? undefined : config;
}

/** Builds the body. The model is not in it: Gemini names the model in the path. */
export function buildGeminiRequest(request: ChatRequest): GeminiRequestBody {
  const { systemInstruction, contents } = toGeminiConversation(request.messages);
  const tools = request.tools ?? [];
  const config = generationConfig(request);
  return {
    contents,
    ...(systemInstruction === undefined ? {} : { systemInstruction }),
    ...(tools.length === 0
      ? {}
      : { tools: [{ functionDeclarations: tools.map(geminiDeclaration) }] }),
    ...(tools.length === 0 || request.toolChoice === undefined
      ? {}
      : { toolConfig: geminiToolConfig(request.toolChoice) }),
    ...(config === undefined ? {} : { generationConfig: config }),
  };
}
