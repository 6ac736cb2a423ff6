/**
 * Facts about OpenAI models and OpenAI-compatible endpoints that both OpenAI adapters need: which
 * models reason (they take `max_completion_tokens`, may return encrypted reasoning), which
 * endpoint is OpenRouter (it takes `reasoning: {effort}` and wants `reasoning_details` back),
 * and small helpers over Hermes message content.
 */
import type { ChatMessage, MessageContent, ReasoningDetail } from '@hermes/protocol';
import type { ChatRequest, ReasoningEffort } from '../chat-request.js';
import { normalizeModelId } from '../models/model-id.js';
import { resolveModelLimits } from '../models/model-limits.js';
import type { AdapterOptions } from './adapter-options.js';

/** Who answered, as far as the wire said. */
export interface WireIdentity {
  /** The model the service reports; `undefined` when it sent none. */
  readonly model: string | undefined;
  /** The service's response id. */
  readonly responseId: string | undefined;
}

/** Where the OpenAI adapters send requests when no base URL is configured. */
export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** OpenAI's reasoning families: o1, o3, o4-mini, …, gpt-5 and later, codex models. */
const REASONING_MODEL = /^(?:o[1-9](?:$|[-_])|gpt-[5-9](?!\.?\d*-chat)|codex)/;

/** gpt-5.1 and later accept `reasoning_effort: 'none'`; earlier models reject it. */
const NONE_EFFORT_MODEL = /^gpt-(?:5\.[1-9]|[6-9])/;

/**
 * Whether `model` is one of OpenAI's reasoning models (o-series, gpt-5 family except the
 * `-chat` variants, codex). Those reject `max_tokens` in favour of `max_completion_tokens`, and
 * can return encrypted reasoning for stateless replay. Vendor prefixes (`openai/o3`) are ignored.
 */
export function isOpenAIReasoningModel(model: string): boolean {
  return REASONING_MODEL.test(normalizeModelId(model));
}

/** Whether `model` accepts a reasoning effort of `none` (gpt-5.1 and later). */
export function acceptsNoneEffort(model: string): boolean {
  return NONE_EFFORT_MODEL.test(normalizeModelId(model));
}

/**
 * The effort to send for `request`, or `undefined` to send none: `none` is dropped for models
 * that do not accept it, where leaving the knob out is the closest the model allows.
 */
export function effortFor(request: ChatRequest): ReasoningEffort | undefined {
  const effort = request.reasoning?.effort;
  if (effort === 'none' && !acceptsNoneEffort(request.model)) return undefined;
  return effort;
}

/**
 * Whether the endpoint is OpenRouter, by configured provider name or by host. OpenRouter takes
 * `reasoning: {effort}` instead of `reasoning_effort`, and expects the `reasoning_details` it
 * returned to come back verbatim on later turns (Gemini and Anthropic models behind it need
 * their signed reasoning replayed across tool calls).
 */
export function isOpenRouter(options: Pick<AdapterOptions, 'baseUrl' | 'providerName'>): boolean {
  if (options.providerName?.toLowerCase().includes('openrouter') === true) return true;
  if (options.baseUrl === undefined) return false;
  try {
    return /(^|\.)openrouter\.ai$/i.test(new URL(options.baseUrl).hostname);
  } catch {
    return false;
  }
}

/**
 * The output limit to send when the request names none: the model's known limit (config
 * override or built-in table). For a model nobody knows, nothing is sent and the server decides,
 * because a guessed cap would truncate answers on local servers that allow more.
 */
export function defaultMaxOutputTokens(
  request: ChatRequest,
  overrides: AdapterOptions['modelLimitOverrides'],
): number | undefined {
  if (request.maxOutputTokens !== undefined) return request.maxOutputTokens;
  if (overrides === undefined) {
    // Asked on every call; without overrides the answer depends on the model name alone.
    if (!defaultOutputCache.has(request.model)) {
      const limits = resolveModelLimits(request.model, {});
      defaultOutputCache.set(
        request.model,
        limits.source === 'default' ? undefined : limits.maxOutputTokens,
      );
    }
    return defaultOutputCache.get(request.model);
  }
  const limits = resolveModelLimits(request.model, overrides);
  return limits.source === 'default' ? undefined : limits.maxOutputTokens;
}

const defaultOutputCache = new Map<string, number | undefined>();

/** The text of a message body: the string, or its text parts joined. */
export function contentText(content: MessageContent | null): string {
  if (content === null) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/**
 * A rough prompt size for the error classifier (about four characters per token): enough to tell
 * a huge session from a small one when a server drops the connection instead of answering.
 */
export function approxPromptTokens(request: ChatRequest): number {
  let chars = 0;
  for (const message of request.messages) chars += messageChars(message);
  for (const tool of request.tools ?? []) chars += JSON.stringify(tool).length;
  return Math.ceil(chars / 4);
}

function messageChars(message: ChatMessage): number {
  let chars = contentText(message.content).length;
  if (message.role === 'assistant') {
    for (const call of message.tool_calls ?? []) chars += call.function.arguments.length;
  }
  return chars;
}

/** The reasoning details OpenRouter understands (`reasoning.text`, `reasoning.encrypted`, …). */
export function openRouterDetails(
  details: readonly ReasoningDetail[] | undefined,
): ReasoningDetail[] {
  return (details ?? []).filter((detail) => detail.type.startsWith('reasoning.'));
}
