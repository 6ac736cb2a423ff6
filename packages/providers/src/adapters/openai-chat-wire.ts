/**
 * What Chat Completions servers send back, checked with zod. OpenAI-compatible servers differ in
 * the details (`reasoning_content` vs `reasoning`, missing tool-call indices, extra usage
 * fields), so every field is optional and a field of the wrong type reads as absent: a chunk the
 * schema cannot use is skipped, never a crash.
 */
import type { FinishReason } from '@hermes/protocol';
import { z } from 'zod';
import type { UsageUpdate } from '../stream/usage-update.js';

const text = z.string().nullish().catch(undefined);
const count = z.number().nullish().catch(undefined);

/** A reasoning detail as OpenRouter sends it (`reasoning.text`, `reasoning.encrypted`, …). */
export const WireReasoningDetailSchema = z.looseObject({ type: z.string() });
export type WireReasoningDetail = z.infer<typeof WireReasoningDetailSchema>;

const detailList = z.array(z.unknown()).nullish().catch(undefined);

/** Token usage, with the cache counters of OpenAI, DeepSeek and OpenRouter. */
export const ChatUsageSchema = z.object({
  prompt_tokens: count,
  completion_tokens: count,
  prompt_tokens_details: z
    .object({ cached_tokens: count, cache_write_tokens: count })
    .nullish()
    .catch(undefined),
  completion_tokens_details: z.object({ reasoning_tokens: count }).nullish().catch(undefined),
  prompt_cache_hit_tokens: count,
});
export type ChatUsage = z.infer<typeof ChatUsageSchema>;

const functionPart = z.object({ name: text, arguments: text }).nullish().catch(undefined);

/** One streamed fragment of a tool call. */
export const ToolCallDeltaSchema = z.object({
  index: z.number().int().nonnegative().nullish().catch(undefined),
  id: text,
  function: functionPart,
});

/** The `delta` (stream) or `message` (JSON) of a choice: the fields Hermes reads. */
const MessageFieldsSchema = z.object({
  content: z
    .union([z.string(), z.array(z.object({ type: z.string(), text: text }))])
    .nullish()
    .catch(undefined),
  reasoning_content: text,
  reasoning: text,
  refusal: text,
  tool_calls: z.array(ToolCallDeltaSchema).nullish().catch(undefined),
  reasoning_details: detailList,
});
export type ChatMessageFields = z.infer<typeof MessageFieldsSchema>;

/** One `chat.completion.chunk`. */
export const ChatChunkSchema = z.object({
  id: text,
  model: text,
  choices: z
    .array(
      z.object({
        index: count,
        delta: MessageFieldsSchema.nullish().catch(undefined),
        finish_reason: text,
      }),
    )
    .nullish()
    .catch(undefined),
  usage: ChatUsageSchema.nullish().catch(undefined),
});
export type ChatChunk = z.infer<typeof ChatChunkSchema>;

/** One `chat.completion` (a non-streamed answer). A body without `choices` is not one. */
export const ChatCompletionSchema = z.object({
  id: text,
  model: text,
  choices: z.array(
    z.object({
      index: count,
      message: MessageFieldsSchema,
      finish_reason: text,
    }),
  ),
  usage: ChatUsageSchema.nullish().catch(undefined),
});
export type ChatCompletion = z.infer<typeof ChatCompletionSchema>;

const FINISH_REASONS: Readonly<Record<string, FinishReason>> = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool_calls',
  // The pre-tools name of a tool call, still sent by some compatible servers.
  function_call: 'tool_calls',
  content_filter: 'content_filter',
};

/** The normalized finish reason of a wire `finish_reason`; anything unrecognized is `unknown`. */
export function chatFinishReason(wire: string): FinishReason {
  return FINISH_REASONS[wire] ?? 'unknown';
}

/**
 * The usage counters of a wire usage block. OpenAI counts cached (and, on OpenRouter, written)
 * tokens inside `prompt_tokens`; Hermes' `inputTokens` is the part billed at the full rate, so
 * both are subtracted. DeepSeek reports cache hits as `prompt_cache_hit_tokens`.
 */
export function chatUsageUpdate(usage: ChatUsage): UsageUpdate {
  const cached = usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens ?? 0;
  const written = usage.prompt_tokens_details?.cache_write_tokens ?? 0;
  const prompt = usage.prompt_tokens;
  return {
    inputTokens:
      typeof prompt === 'number'
        ? Math.max(0, prompt - Math.max(0, cached) - Math.max(0, written))
        : undefined,
    outputTokens: usage.completion_tokens,
    cacheReadTokens: cached,
    cacheWriteTokens: written,
    reasoningTokens: usage.completion_tokens_details?.reasoning_tokens,
  };
}

/** The text of a message `content` that is a string or a list of text parts. */
export function wireContentText(content: ChatMessageFields['content']): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join('');
}

/** The entries of a wire `reasoning_details` list that have the shape of one. */
export function wireReasoningDetails(details: readonly unknown[]): WireReasoningDetail[] {
  const out: WireReasoningDetail[] = [];
  for (const detail of details) {
    const parsed = WireReasoningDetailSchema.safeParse(detail);
    if (parsed.success) out.push(parsed.data);
  }
  return out;
}
