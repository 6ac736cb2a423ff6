/**
 * Completed Responses output items → the stream accumulator. Used for every item of a JSON answer
 * and for `response.output_item.done` in a stream, where it fills in only what the deltas did
 * not already deliver (a server may send an item whole, without deltas). Reasoning items are also
 * kept verbatim as reasoning details, so their encrypted state can be replayed next turn.
 */
import type { ReasoningDetail } from '@hermes/protocol';
import type { StreamAccumulator } from '../stream/response-builder.js';
import type { ToolCallKey } from '../stream/tool-call-assembler.js';
import { type OutputItem, OutputItemSchema } from './openai-responses-wire.js';

/** What the deltas of a stream already delivered, per item key. */
export class DeliveredParts {
  /** Items whose text (or refusal) came as deltas. */
  readonly text = new Set<ToolCallKey>();
  /** Items whose reasoning came as deltas. */
  readonly reasoning = new Set<ToolCallKey>();
  /** Function calls whose arguments came as deltas. */
  readonly arguments = new Set<ToolCallKey>();
}

/** The key of an item: its id, else its position in the output. */
export function itemKey(id: string | null | undefined, outputIndex: number | null | undefined) {
  return id || (outputIndex ?? 'item');
}

type Item<T extends OutputItem['type']> = Extract<OutputItem, { type: T }>;

function messageDone(acc: StreamAccumulator, item: Item<'message'>, delivered: boolean): boolean {
  let refused = false;
  if (!delivered) {
    for (const part of item.content) {
      if (part.type === 'output_text' && part.text) acc.textDelta(part.text);
      if (part.type === 'refusal' && part.refusal) {
        acc.textDelta(part.refusal);
        refused = true;
      }
    }
  }
  acc.endText();
  return refused;
}

function reasoningDone(acc: StreamAccumulator, item: Item<'reasoning'>, delivered: boolean): void {
  if (!delivered) {
    const parts = item.summary.length > 0 ? item.summary : (item.content ?? []);
    for (const part of parts) {
      acc.reasoningDelta(part.text);
      acc.endReasoning();
    }
  }
  acc.endReasoning();
  if (!item.id) return;
  const detail: ReasoningDetail = { type: 'reasoning', id: item.id, summary: item.summary };
  if (item.encrypted_content) detail.encrypted_content = item.encrypted_content;
  acc.reasoningDetail(detail);
}

function functionCallDone(
  acc: StreamAccumulator,
  item: Item<'function_call'>,
  key: ToolCallKey,
  delivered: boolean,
): void {
  acc.toolCallStart(key, { id: item.call_id, name: item.name });
  if (!delivered && item.arguments !== '') acc.toolCallArgumentsDelta(key, item.arguments);
  acc.toolCallDone(key);
}

/**
 * Feeds one completed output item. `outputIndex` keys items without an id; `delivered` says what
 * the stream already gave (a fresh instance for a JSON answer). Returns whether the item was a
 * refusal. Items of other types (web search, …) and malformed items are skipped.
 */
export function feedCompletedItem(
  acc: StreamAccumulator,
  raw: unknown,
  outputIndex: number | undefined,
  delivered: DeliveredParts,
): boolean {
  const parsed = OutputItemSchema.safeParse(raw);
  if (!parsed.success) return false;
  const item = parsed.data;
  const key = itemKey(item.id, outputIndex);
  switch (item.type) {
    case 'message':
      return messageDone(acc, item, delivered.text.has(key));
    case 'reasoning':
      reasoningDone(acc, item, delivered.reasoning.has(key));
      return false;
    case 'function_call':
      functionCallDone(acc, item, key, delivered.arguments.has(key));
      return false;
  }
}
