/**
 * Chat Completions chunks → the stream accumulator. One reader per call: it validates each
 * chunk, routes its parts (reasoning, text, tool-call fragments, finish reason, usage) to the
 * accumulator, and at the end says whether the stream was complete.
 *
 * Reasoning text comes as `reasoning_content` (DeepSeek, vLLM, llama.cpp) or `reasoning`
 * (OpenRouter, Ollama); a server that sends both sends the same text twice, so the first wins.
 * OpenRouter's `reasoning_details` fragments are merged and kept for replay, not shown.
 */
import type { FinishReason } from '@hermes/protocol';
import type { StreamAccumulator } from '../stream/response-builder.js';
import {
  type ChatChunk,
  ChatChunkSchema,
  type ChatMessageFields,
  chatFinishReason,
  chatUsageUpdate,
  wireContentText,
  wireReasoningDetails,
} from './openai-chat-wire.js';
import { incompleteStreamError } from './openai-errors.js';
import { ReasoningDetailMerger } from './openai-reasoning-details.js';
import type { WireIdentity } from './openai-shared.js';

/**
 * Feeds the parts of a message (a stream `delta`, or a JSON `message` as one big delta) to the
 * accumulator. Returns whether the message carried a refusal.
 */
export function feedChatMessage(
  acc: StreamAccumulator,
  fields: ChatMessageFields,
  details?: ReasoningDetailMerger,
): boolean {
  const reasoning = fields.reasoning_content || fields.reasoning;
  if (reasoning) acc.reasoningDelta(reasoning);
  const text = wireContentText(fields.content);
  if (text !== '') acc.textDelta(text);
  // A refusal is the model's visible answer; it is shown as text and ends as `refusal`.
  if (fields.refusal) acc.textDelta(fields.refusal);
  const calls = fields.tool_calls ?? [];
  calls.forEach((call, position) => {
    // Servers that omit `index` send each call whole in one chunk: its position is its key.
    const key = call.index ?? position;
    if (call.id || call.function?.name) {
      acc.toolCallStart(key, { id: call.id, name: call.function?.name });
    }
    const fragment = call.function?.arguments;
    if (fragment) acc.toolCallArgumentsDelta(key, fragment);
  });
  if (details !== undefined && fields.reasoning_details) {
    details.add(wireReasoningDetails(fields.reasoning_details));
  }
  return Boolean(fields.refusal);
}

/** The finish reason to record: a refusal turns an ordinary stop into `refusal`. */
export function finalChatReason(wire: string, refused: boolean): FinishReason {
  const reason = chatFinishReason(wire);
  return refused && reason === 'stop' ? 'refusal' : reason;
}

/** Reads one streamed Chat Completions answer into a {@link StreamAccumulator}. */
export class ChatStreamReader {
  private readonly acc: StreamAccumulator;
  private readonly details = new ReasoningDetailMerger();
  private chunks = 0;
  private finished = false;
  private refused = false;
  private model: string | undefined;
  private responseId: string | undefined;

  constructor(acc: StreamAccumulator) {
    this.acc = acc;
  }

  /** Processes one chunk as the SDK parsed it; a chunk of an unusable shape is skipped. */
  feed(raw: unknown): void {
    this.chunks += 1;
    const parsed = ChatChunkSchema.safeParse(raw);
    if (!parsed.success) return;
    const chunk: ChatChunk = parsed.data;
    this.model ??= chunk.model ?? undefined;
    this.responseId ??= chunk.id ?? undefined;
    for (const choice of chunk.choices ?? []) {
      // Hermes never asks for n > 1; other choices would be alternatives, not continuations.
      if ((choice.index ?? 0) !== 0) continue;
      if (choice.delta)
        this.refused = feedChatMessage(this.acc, choice.delta, this.details) || this.refused;
      if (choice.finish_reason) {
        this.finished = true;
        this.acc.finish(finalChatReason(choice.finish_reason, this.refused));
      }
    }
    if (chunk.usage) this.acc.usage(chatUsageUpdate(chunk.usage));
  }

  /**
   * Ends the stream: keeps the merged reasoning details and returns who answered.
   *
   * @throws HermesError `provider.incomplete_stream` when no chunk carried a finish reason (an
   *   empty or cut-short body).
   */
  end(): WireIdentity {
    if (!this.finished) throw incompleteStreamError(this.chunks);
    for (const detail of this.details.details()) this.acc.reasoningDetail(detail);
    return { model: this.model, responseId: this.responseId };
  }
}
