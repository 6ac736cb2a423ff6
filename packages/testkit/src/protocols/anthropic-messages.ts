/**
 * The Anthropic Messages API (`POST /v1/messages`): a scripted turn as a `Message` object or as
 * the event stream `message_start`, `ping`, per content block `content_block_start` / `…_delta` /
 * `…_stop`, `message_delta`, `message_stop`. Every frame carries an `event:` name equal to its
 * data's `type`: the official SDK skips frames without one.
 */
import { createHash } from 'node:crypto';
import type { ScriptToolCall, ScriptTurn, ScriptUsage } from '../script.js';
import type { EncodeContext, ProtocolEncoder, SseFrame } from './encoder.js';
import {
  argumentsText,
  finishReasonOf,
  generatedId,
  resolveChunking,
  resolveUsage,
  splitText,
} from './turn-parts.js';

type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'refusal';

/** One content block, with what the stream form needs beside the JSON form. */
type Block =
  | { kind: 'thinking'; thinking: string; signature: string }
  | { kind: 'text'; text: string }
  | { kind: 'tool_use'; id: string; name: string; rawInput: string; input: unknown };

/** Anthropic's name for each scripted finish reason. */
const STOP_REASONS: Readonly<Record<NonNullable<ScriptTurn['finishReason']>, StopReason>> = {
  stop: 'end_turn',
  tool_calls: 'tool_use',
  length: 'max_tokens',
  content_filter: 'refusal',
};

/** The error `type` Anthropic sends with each status. */
const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

/**
 * A signature for scripted reasoning that gave none: derived from the reasoning text, so the same
 * turn always gets the same one, and base64 like the real opaque signatures.
 */
function defaultSignature(reasoning: string): string {
  return createHash('sha256').update(`hermes-testkit:${reasoning}`).digest('base64');
}

/**
 * A tool call's input as a JSON object. A Message body can only carry an object, so a scripted
 * string that is not a JSON object (broken JSON, say) becomes `{}` here; only the stream form,
 * which sends the raw fragments, can reproduce broken tool-call JSON.
 */
function toolInput(call: ScriptToolCall): unknown {
  if (typeof call.arguments !== 'string') return call.arguments;
  try {
    const parsed: unknown = JSON.parse(call.arguments);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/** The content blocks in the order the real service sends them: thinking, text, tool uses. */
function blocksOf(turn: ScriptTurn, context: EncodeContext): Block[] {
  const blocks: Block[] = [];
  if (turn.reasoning !== undefined) {
    const signature = turn.reasoningSignature ?? defaultSignature(turn.reasoning);
    blocks.push({ kind: 'thinking', thinking: turn.reasoning, signature });
  }
  // A turn with nothing else still answers with an (empty) text block.
  if (turn.text !== undefined || (turn.toolCalls.length === 0 && turn.reasoning === undefined)) {
    blocks.push({ kind: 'text', text: turn.text ?? '' });
  }
  turn.toolCalls.forEach((call, index) => {
    const id = call.id ?? generatedId('toolu_', context, index);
    blocks.push({
      kind: 'tool_use',
      id,
      name: call.name,
      rawInput: argumentsText(call),
      input: toolInput(call),
    });
  });
  return blocks;
}

/**
 * A block as it appears in a `Message`; `started` gives the empty form that
 * `content_block_start` carries before the deltas fill it.
 */
function wireBlock(block: Block, started: boolean): Record<string, unknown> {
  switch (block.kind) {
    case 'thinking':
      return {
        type: 'thinking',
        thinking: started ? '' : block.thinking,
        signature: started ? '' : block.signature,
      };
    case 'text':
      return { type: 'text', text: started ? '' : block.text, citations: null };
    case 'tool_use':
      return {
        type: 'tool_use',
        id: block.id,
        name: block.name,
        input: started ? {} : block.input,
        caller: { type: 'direct' },
      };
  }
}

/** The thinking-token breakdown, reported only when the script counts reasoning tokens. */
function thinkingDetails(usage: ScriptUsage): { thinking_tokens: number } | null {
  return usage.reasoningTokens > 0 ? { thinking_tokens: usage.reasoningTokens } : null;
}

/** Script usage (fresh input, cache reads and writes apart) maps one to one onto Anthropic's. */
function usageBlock(usage: ScriptUsage, outputTokens: number): Record<string, unknown> {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: outputTokens,
    cache_creation_input_tokens: usage.cacheWriteTokens,
    cache_read_input_tokens: usage.cacheReadTokens,
    cache_creation: {
      ephemeral_5m_input_tokens: usage.cacheWriteTokens,
      ephemeral_1h_input_tokens: 0,
    },
    output_tokens_details: thinkingDetails(usage),
    server_tool_use: null,
    service_tier: 'standard',
    inference_geo: null,
    speed: null,
  };
}

/**
 * The usage `message_delta` carries: cumulative totals for the whole message, as the real service
 * reports them (the SDK overwrites its snapshot with each counter present).
 */
function deltaUsage(usage: ScriptUsage): Record<string, unknown> {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: usage.cacheWriteTokens,
    cache_read_input_tokens: usage.cacheReadTokens,
    output_tokens_details: thinkingDetails(usage),
    server_tool_use: null,
  };
}

/** How the turn ended: stop reason plus the refusal details a `refusal` stop comes with. */
function stopFields(turn: ScriptTurn): Record<string, unknown> {
  const stopReason = STOP_REASONS[finishReasonOf(turn)];
  const stopDetails =
    stopReason === 'refusal' ? { type: 'refusal', category: null, explanation: null } : null;
  return { stop_reason: stopReason, stop_sequence: null, stop_details: stopDetails };
}

/** The `Message` object; `started` gives the empty snapshot `message_start` carries. */
function messageObject(
  turn: ScriptTurn,
  context: EncodeContext,
  started: boolean,
): Record<string, unknown> {
  const usage = resolveUsage(turn);
  return {
    id: `msg_${context.responseId}`,
    type: 'message',
    role: 'assistant',
    model: turn.model ?? context.model,
    content: started ? [] : blocksOf(turn, context).map((block) => wireBlock(block, false)),
    ...(started
      ? { stop_reason: null, stop_sequence: null, stop_details: null }
      : stopFields(turn)),
    // The real service counts the first generated token already in message_start.
    usage: usageBlock(usage, started ? Math.min(1, usage.outputTokens) : usage.outputTokens),
    container: null,
    diagnostics: null,
  };
}

/** The deltas that fill one block, fragment by fragment. */
function blockDeltas(
  block: Block,
  textSize: number,
  argumentsSize: number,
): Record<string, unknown>[] {
  switch (block.kind) {
    case 'thinking':
      return [
        ...splitText(block.thinking, textSize).map((thinking) => ({
          type: 'thinking_delta',
          thinking,
        })),
        // The signature arrives whole, after the thinking text, as the real service sends it.
        { type: 'signature_delta', signature: block.signature },
      ];
    case 'text':
      return splitText(block.text, textSize).map((text) => ({ type: 'text_delta', text }));
    case 'tool_use':
      return splitText(block.rawInput, argumentsSize).map((partial_json) => ({
        type: 'input_json_delta',
        partial_json,
      }));
  }
}

/** Every event of the stream in order, each named by its `type`. */
function streamFrames(turn: ScriptTurn, context: EncodeContext): SseFrame[] {
  const frames: SseFrame[] = [];
  const emit = (type: string, fields: Record<string, unknown>): void => {
    frames.push({ event: type, data: { type, ...fields } });
  };
  const { textChunkSize, argumentsChunkSize } = resolveChunking(turn);
  const usage = resolveUsage(turn);
  emit('message_start', { message: messageObject(turn, context, true) });
  emit('ping', {});
  blocksOf(turn, context).forEach((block, index) => {
    emit('content_block_start', { index, content_block: wireBlock(block, true) });
    for (const delta of blockDeltas(block, textChunkSize, argumentsChunkSize)) {
      emit('content_block_delta', { index, delta });
    }
    emit('content_block_stop', { index });
  });
  const { stop_reason, stop_sequence, stop_details } = stopFields(turn);
  emit('message_delta', {
    delta: { stop_reason, stop_sequence, stop_details, container: null },
    usage: deltaUsage(usage),
  });
  emit('message_stop', {});
  return frames;
}

/** The error type for a status the table does not name: client error or server error. */
function errorTypeFor(status: number): string {
  return ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

/** The Anthropic Messages wire protocol. */
export const anthropicMessagesEncoder: ProtocolEncoder = {
  protocol: 'anthropic-messages',
  json: (turn, context) => messageObject(turn, context, false),
  stream: streamFrames,
  // Anthropic has no error code beside the type, so `code` has nowhere to go.
  errorBody: (status, message, type) => ({
    type: 'error',
    error: { type: type ?? errorTypeFor(status), message },
  }),
};
