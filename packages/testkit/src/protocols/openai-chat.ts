/**
 * OpenAI Chat Completions on the wire: a `chat.completion` JSON body, or a stream of
 * `chat.completion.chunk` frames ending in `data: [DONE]`, shaped exactly as the real service
 * sends them, so the official `openai` client and any OpenAI-compatible consumer accept them.
 */
import type { ScriptTurn, ScriptUsage } from '../script.js';
import type { EncodeContext, ProtocolEncoder, SseFrame } from './encoder.js';
import {
  argumentsText,
  finishReasonOf,
  generatedId,
  resolveChunking,
  resolveUsage,
  splitText,
} from './turn-parts.js';

/** The fingerprint every answer carries, as real responses do. */
const SYSTEM_FINGERPRINT = 'fp_hermes_testkit';

/** A tool call as it appears in a `chat.completion` message. */
interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** The OpenAI usage object: cache reads and writes are part of `prompt_tokens`. */
function wireUsage(usage: ScriptUsage): Record<string, unknown> {
  const promptTokens = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  return {
    prompt_tokens: promptTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: promptTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cacheReadTokens, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: usage.reasoningTokens,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function wireToolCalls(turn: ScriptTurn, context: EncodeContext): WireToolCall[] {
  return turn.toolCalls.map((call, index) => ({
    id: call.id ?? generatedId('call_', context, index),
    type: 'function',
    function: { name: call.name, arguments: argumentsText(call) },
  }));
}

function completionId(context: EncodeContext): string {
  return `chatcmpl-${context.responseId}`;
}

function json(turn: ScriptTurn, context: EncodeContext): unknown {
  const toolCalls = wireToolCalls(turn, context);
  const message: Record<string, unknown> = {
    role: 'assistant',
    // The real service sends null content when the model only called tools.
    content: turn.text ?? (toolCalls.length > 0 ? null : ''),
    refusal: null,
    annotations: [],
  };
  if (turn.reasoning !== undefined) message.reasoning_content = turn.reasoning;
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  return {
    id: completionId(context),
    object: 'chat.completion',
    created: context.created,
    model: turn.model ?? context.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReasonOf(turn) }],
    usage: wireUsage(resolveUsage(turn)),
    service_tier: 'default',
    system_fingerprint: SYSTEM_FINGERPRINT,
  };
}

/** The tool-call deltas in stream order: per call a header (id, type, name), then argument fragments. */
function toolCallDeltas(turn: ScriptTurn, context: EncodeContext): Record<string, unknown>[][] {
  const { argumentsChunkSize } = resolveChunking(turn);
  return wireToolCalls(turn, context).map((call, index) => [
    { index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } },
    ...splitText(call.function.arguments, argumentsChunkSize).map((fragment) => ({
      index,
      function: { arguments: fragment },
    })),
  ]);
}

/** Orders the per-call delta lists: one call after another, or round-robin when interleaved. */
function orderToolCallDeltas(
  perCall: Record<string, unknown>[][],
  interleave: boolean,
): Record<string, unknown>[] {
  if (!interleave) return perCall.flat();
  const ordered: Record<string, unknown>[] = [];
  const longest = Math.max(0, ...perCall.map((deltas) => deltas.length));
  for (let step = 0; step < longest; step += 1) {
    for (const deltas of perCall) {
      const delta = deltas[step];
      if (delta) ordered.push(delta);
    }
  }
  return ordered;
}

/** Every `delta` of the stream, first (role) to last (empty, carrying the finish reason). */
function streamDeltas(turn: ScriptTurn, context: EncodeContext): Record<string, unknown>[] {
  const chunking = resolveChunking(turn);
  const onlyTools = turn.text === undefined && turn.toolCalls.length > 0;
  const deltas: Record<string, unknown>[] = [
    { role: 'assistant', content: onlyTools ? null : '', refusal: null },
  ];
  for (const piece of splitText(turn.reasoning ?? '', chunking.textChunkSize)) {
    deltas.push({ reasoning_content: piece });
  }
  for (const piece of splitText(turn.text ?? '', chunking.textChunkSize)) {
    deltas.push({ content: piece });
  }
  const toolDeltas = orderToolCallDeltas(
    toolCallDeltas(turn, context),
    chunking.interleaveToolCalls,
  );
  for (const toolDelta of toolDeltas) deltas.push({ tool_calls: [toolDelta] });
  return deltas;
}

function stream(turn: ScriptTurn, context: EncodeContext): SseFrame[] {
  const base = {
    id: completionId(context),
    object: 'chat.completion.chunk',
    created: context.created,
    model: turn.model ?? context.model,
    service_tier: 'default',
    system_fingerprint: SYSTEM_FINGERPRINT,
  };
  // With include_usage the real service adds `usage: null` to every chunk but the last.
  const nullUsage = context.includeUsage ? { usage: null } : {};
  const chunk = (delta: Record<string, unknown>, finishReason: string | null): SseFrame => ({
    data: {
      ...base,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...nullUsage,
    },
  });
  const frames = streamDeltas(turn, context).map((delta) => chunk(delta, null));
  frames.push(chunk({}, finishReasonOf(turn)));
  if (context.includeUsage) {
    frames.push({ data: { ...base, choices: [], usage: wireUsage(resolveUsage(turn)) } });
  }
  frames.push({ data: '[DONE]' });
  return frames;
}

/** The error `type` the real service uses for each status when the script names none. */
function defaultErrorType(status: number): string {
  if (status === 429) return 'requests';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

function errorBody(status: number, message: string, type?: string, code?: string): unknown {
  return {
    error: { message, type: type ?? defaultErrorType(status), param: null, code: code ?? null },
  };
}

/** The OpenAI Chat Completions encoder (`POST /v1/chat/completions`). */
export const openaiChatEncoder: ProtocolEncoder = {
  protocol: 'openai-chat',
  json,
  stream,
  errorBody,
};
