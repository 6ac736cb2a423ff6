/**
 * Amazon Bedrock's Converse API (`POST /model/{modelId}/converse` and `/converse-stream`): a
 * scripted turn as the `Converse` JSON (`output.message.content[]`, `stopReason`, `usage`,
 * `metrics`) or as the `ConverseStream` events `messageStart`, per content block
 * `contentBlockStart` (tool use only) / `contentBlockDelta` / `contentBlockStop`, `messageStop`
 * and `metadata`, each in AWS's binary event-stream framing (see `bedrock-event-stream.ts`).
 * Errors are `{"message": …}` with the exception's name in `x-amzn-errortype`, which is where
 * the official client reads the error type from.
 */
import type { ScriptToolCall, ScriptTurn, ScriptUsage } from '../script.js';
import { BEDROCK_STREAM_HEADERS, encodeBedrockEvent } from './bedrock-event-stream.js';
import type { EncodeContext, ProtocolEncoder, SseFrame } from './encoder.js';
import {
  argumentsText,
  finishReasonOf,
  generatedId,
  resolveChunking,
  resolveUsage,
  splitText,
} from './turn-parts.js';

type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'content_filtered';

/** Bedrock's name for each scripted finish reason. */
const STOP_REASONS: Readonly<Record<NonNullable<ScriptTurn['finishReason']>, StopReason>> = {
  stop: 'end_turn',
  tool_calls: 'tool_use',
  length: 'max_tokens',
  content_filter: 'content_filtered',
};

/** The exception Bedrock names in `x-amzn-errortype` for each status. */
const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'ValidationException',
  401: 'UnrecognizedClientException',
  403: 'AccessDeniedException',
  404: 'ResourceNotFoundException',
  408: 'ModelTimeoutException',
  413: 'ValidationException',
  424: 'ModelErrorException',
  429: 'ThrottlingException',
  500: 'InternalServerException',
  503: 'ServiceUnavailableException',
};

/** The shape of an AWS exception name; anything else (a script's `rate_limit_error`) is ignored. */
const EXCEPTION_NAME = /^[A-Z][A-Za-z]*(?:Exception|Error|Fault)$/;

/** The scripted latency reported in `metrics.latencyMs` (the value is not meaningful here). */
const LATENCY_MS = 42;

/** One content block, with what the stream form needs beside the JSON form. */
type Block =
  | { kind: 'reasoning'; text: string; signature: string | undefined }
  | { kind: 'text'; text: string }
  | { kind: 'toolUse'; id: string; name: string; rawInput: string; input: unknown };

/** A tool call's input as a JSON object; the JSON form cannot carry a broken string (→ `{}`). */
function toolInput(call: ScriptToolCall): unknown {
  if (typeof call.arguments !== 'string') return call.arguments;
  try {
    const parsed: unknown = JSON.parse(call.arguments);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/** The content blocks in the order the real service sends them: reasoning, text, tool uses. */
function blocksOf(turn: ScriptTurn, context: EncodeContext): Block[] {
  const blocks: Block[] = [];
  if (turn.reasoning !== undefined) {
    // Signed only when the script signs it: Claude's reasoning on Bedrock carries a signature,
    // other families' (DeepSeek-R1, …) does not, and a client must handle both.
    blocks.push({ kind: 'reasoning', text: turn.reasoning, signature: turn.reasoningSignature });
  }
  if (turn.text !== undefined || (turn.toolCalls.length === 0 && turn.reasoning === undefined)) {
    blocks.push({ kind: 'text', text: turn.text ?? '' });
  }
  turn.toolCalls.forEach((call, index) => {
    blocks.push({
      kind: 'toolUse',
      id: call.id ?? generatedId('tooluse_', context, index),
      name: call.name,
      rawInput: argumentsText(call),
      input: toolInput(call),
    });
  });
  return blocks;
}

/** A block as it appears in `output.message.content[]`. */
function jsonBlock(block: Block): Record<string, unknown> {
  switch (block.kind) {
    case 'reasoning':
      return {
        reasoningContent: {
          reasoningText: {
            text: block.text,
            ...(block.signature === undefined ? {} : { signature: block.signature }),
          },
        },
      };
    case 'text':
      return { text: block.text };
    case 'toolUse':
      return { toolUse: { toolUseId: block.id, name: block.name, input: block.input } };
  }
}

/**
 * Bedrock's usage: `inputTokens` is the fresh input (cache reads and writes are counted apart, as
 * the script counts them) and `totalTokens` is everything together.
 */
function wireUsage(usage: ScriptUsage): Record<string, number> {
  return {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    totalTokens:
      usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.cacheWriteTokens,
    cacheReadInputTokens: usage.cacheReadTokens,
    cacheWriteInputTokens: usage.cacheWriteTokens,
  };
}

/** The `Converse` response body. */
function converseBody(turn: ScriptTurn, context: EncodeContext): Record<string, unknown> {
  return {
    output: {
      message: { role: 'assistant', content: blocksOf(turn, context).map(jsonBlock) },
    },
    stopReason: STOP_REASONS[finishReasonOf(turn)],
    usage: wireUsage(resolveUsage(turn)),
    metrics: { latencyMs: LATENCY_MS },
  };
}

/** The deltas that fill one block, fragment by fragment, as the scripted chunking cuts them. */
function blockDeltas(
  block: Block,
  textSize: number,
  argumentsSize: number,
): Record<string, unknown>[] {
  switch (block.kind) {
    case 'reasoning': {
      const pieces = splitText(block.text, textSize).map((text) => ({
        reasoningContent: { text },
      }));
      // The signature arrives whole, after the reasoning text, as the real service sends it.
      const signature =
        block.signature === undefined ? [] : [{ reasoningContent: { signature: block.signature } }];
      return [...pieces, ...signature];
    }
    case 'text':
      return splitText(block.text, textSize).map((text) => ({ text }));
    case 'toolUse':
      return splitText(block.rawInput, argumentsSize).map((input) => ({ toolUse: { input } }));
  }
}

/** Every `ConverseStream` event in order, each named by its event type. */
function streamFrames(turn: ScriptTurn, context: EncodeContext): SseFrame[] {
  const frames: SseFrame[] = [];
  const emit = (event: string, data: Record<string, unknown>): void => {
    frames.push({ event, data });
  };
  const { textChunkSize, argumentsChunkSize } = resolveChunking(turn);
  emit('messageStart', { role: 'assistant' });
  blocksOf(turn, context).forEach((block, contentBlockIndex) => {
    // Only tool use opens with a start event (its id and name); text and reasoning begin with
    // their first delta.
    if (block.kind === 'toolUse') {
      emit('contentBlockStart', {
        contentBlockIndex,
        start: { toolUse: { toolUseId: block.id, name: block.name } },
      });
    }
    for (const delta of blockDeltas(block, textChunkSize, argumentsChunkSize)) {
      emit('contentBlockDelta', { contentBlockIndex, delta });
    }
    emit('contentBlockStop', { contentBlockIndex });
  });
  emit('messageStop', { stopReason: STOP_REASONS[finishReasonOf(turn)] });
  emit('metadata', { usage: wireUsage(resolveUsage(turn)), metrics: { latencyMs: LATENCY_MS } });
  return frames;
}

/** The exception name for an HTTP error: the script's, when it is one, else the status's. */
export function bedrockErrorType(status: number, type?: string): string {
  if (type !== undefined && EXCEPTION_NAME.test(type)) return type;
  return ERROR_TYPES[status] ?? (status >= 500 ? 'InternalServerException' : 'ValidationException');
}

/** The Bedrock Converse encoder. */
export const bedrockConverseEncoder: ProtocolEncoder = {
  protocol: 'bedrock-converse',
  json: converseBody,
  stream: streamFrames,
  // Bedrock's error body carries only the message; the type travels in a header.
  errorBody: (_status, message) => ({ message }),
  errorHeaders: (status, type) => ({ 'x-amzn-errortype': bedrockErrorType(status, type) }),
  streamHeaders: BEDROCK_STREAM_HEADERS,
  formatFrame: encodeBedrockEvent,
};
