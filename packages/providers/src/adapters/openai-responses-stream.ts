/**
 * Responses API stream events → the stream accumulator. One reader per call:
 * - `response.output_text.delta` → text; `response.refusal.delta` → text, ending as `refusal`;
 * - `response.reasoning_summary_text.delta` and `response.reasoning_text.delta` → reasoning
 *   (each summary part its own block);
 * - `response.output_item.added` of a function call → the call's id (`call_id`) and name, keyed
 *   by the item id; `response.function_call_arguments.delta` → its argument fragments;
 * - `response.output_item.done` → fills in whatever came without deltas, closes the item, and
 *   keeps reasoning items (with `encrypted_content`) for replay;
 * - `response.completed` / `response.incomplete` → usage and finish reason;
 * - `response.failed` and `error` → an `APIError` for the classifier.
 * Every other event type is skipped, as are events of a shape Hermes cannot use.
 */
import { z } from 'zod';
import type { StreamAccumulator } from '../stream/response-builder.js';
import { incompleteStreamError } from './openai-errors.js';
import { DeliveredParts, feedCompletedItem, itemKey } from './openai-responses-items.js';
import {
  type ResponseObject,
  ResponseObjectSchema,
  ResponsesErrorSchema,
  responsesFailure,
  responsesFinishReason,
  responsesUsageUpdate,
} from './openai-responses-wire.js';
import type { WireIdentity } from './openai-shared.js';

const text = z.string().nullish().catch(undefined);
const index = z.number().int().nullish().catch(undefined);

const EventTypeSchema = z.object({ type: z.string() });
const DeltaEventSchema = z.object({ item_id: text, output_index: index, delta: z.string() });
const ItemEventSchema = z.object({ output_index: index, item: z.unknown() });
const AddedCallSchema = z.object({
  type: z.literal('function_call'),
  id: text,
  call_id: text,
  name: text,
  arguments: text,
});
const ArgumentsDoneSchema = z.object({ item_id: text, output_index: index, arguments: z.string() });
const ResponseEventSchema = z.object({ response: ResponseObjectSchema });

type Handler = (event: unknown) => void;

/** Reads one streamed Responses answer into a {@link StreamAccumulator}. */
export class ResponsesStreamReader {
  private readonly acc: StreamAccumulator;
  private readonly delivered = new DeliveredParts();
  /** Keyed by event type; a Map, so a hostile `type` such as `__proto__` finds nothing. */
  private readonly handlers: ReadonlyMap<string, Handler>;
  private events = 0;
  private final: ResponseObject | undefined;
  private refused = false;
  private model: string | undefined;
  private responseId: string | undefined;

  constructor(acc: StreamAccumulator) {
    this.acc = acc;
    this.handlers = new Map(
      Object.entries({
        'response.created': (e) => this.identify(e),
        'response.in_progress': (e) => this.identify(e),
        'response.output_text.delta': (e) => this.text(e, false),
        'response.refusal.delta': (e) => this.text(e, true),
        'response.reasoning_summary_text.delta': (e) => this.reasoning(e),
        'response.reasoning_text.delta': (e) => this.reasoning(e),
        'response.reasoning_summary_part.done': () => this.acc.endReasoning(),
        'response.output_item.added': (e) => this.itemAdded(e),
        'response.function_call_arguments.delta': (e) => this.argumentsDelta(e),
        'response.function_call_arguments.done': (e) => this.argumentsDone(e),
        'response.output_item.done': (e) => this.itemDone(e),
        'response.completed': (e) => this.finished(e),
        'response.incomplete': (e) => this.finished(e),
        'response.failed': (e) => this.failed(e),
        error: (e) => this.errorEvent(e),
      } satisfies Record<string, Handler>),
    );
  }

  /** Processes one event as the SDK parsed it. */
  feed(raw: unknown): void {
    this.events += 1;
    const typed = EventTypeSchema.safeParse(raw);
    if (typed.success) this.handlers.get(typed.data.type)?.(raw);
  }

  /**
   * Ends the stream, returning who answered.
   *
   * @throws HermesError `provider.incomplete_stream` when no `response.completed` or
   *   `response.incomplete` arrived.
   */
  end(): WireIdentity {
    if (this.final === undefined) throw incompleteStreamError(this.events);
    return { model: this.final.model ?? this.model, responseId: this.final.id ?? this.responseId };
  }

  private identify(raw: unknown): void {
    const parsed = ResponseEventSchema.safeParse(raw);
    if (!parsed.success) return;
    this.model ??= parsed.data.response.model ?? undefined;
    this.responseId ??= parsed.data.response.id ?? undefined;
  }

  private text(raw: unknown, refusal: boolean): void {
    const event = DeltaEventSchema.safeParse(raw);
    if (!event.success) return;
    this.delivered.text.add(itemKey(event.data.item_id, event.data.output_index));
    this.acc.textDelta(event.data.delta);
    if (refusal) this.refused = true;
  }

  private reasoning(raw: unknown): void {
    const event = DeltaEventSchema.safeParse(raw);
    if (!event.success) return;
    this.delivered.reasoning.add(itemKey(event.data.item_id, event.data.output_index));
    this.acc.reasoningDelta(event.data.delta);
  }

  private itemAdded(raw: unknown): void {
    const event = ItemEventSchema.safeParse(raw);
    const call = event.success ? AddedCallSchema.safeParse(event.data.item) : undefined;
    if (!event.success || call?.success !== true) return;
    const key = itemKey(call.data.id, event.data.output_index);
    this.acc.toolCallStart(key, { id: call.data.call_id, name: call.data.name });
    if (call.data.arguments) {
      this.delivered.arguments.add(key);
      this.acc.toolCallArgumentsDelta(key, call.data.arguments);
    }
  }

  private argumentsDelta(raw: unknown): void {
    const event = DeltaEventSchema.safeParse(raw);
    if (!event.success) return;
    const key = itemKey(event.data.item_id, event.data.output_index);
    this.delivered.arguments.add(key);
    this.acc.toolCallArgumentsDelta(key, event.data.delta);
  }

  /** The whole arguments, for a server that sent no fragments. */
  private argumentsDone(raw: unknown): void {
    const event = ArgumentsDoneSchema.safeParse(raw);
    if (!event.success) return;
    const key = itemKey(event.data.item_id, event.data.output_index);
    if (this.delivered.arguments.has(key) || event.data.arguments === '') return;
    this.delivered.arguments.add(key);
    this.acc.toolCallArgumentsDelta(key, event.data.arguments);
  }

  private itemDone(raw: unknown): void {
    const event = ItemEventSchema.safeParse(raw);
    if (!event.success) return;
    const outputIndex = event.data.output_index ?? undefined;
    if (feedCompletedItem(this.acc, event.data.item, outputIndex, this.delivered)) {
      this.refused = true;
    }
  }

  private finished(raw: unknown): void {
    const parsed = ResponseEventSchema.safeParse(raw);
    if (!parsed.success) return;
    const response = parsed.data.response;
    if (response.usage) this.acc.usage(responsesUsageUpdate(response.usage));
    this.acc.finish(responsesFinishReason(response, this.refused));
    this.final = response;
  }

  private failed(raw: unknown): never {
    const parsed = ResponseEventSchema.safeParse(raw);
    const response = parsed.success ? parsed.data.response : undefined;
    throw responsesFailure(response?.error ?? undefined, response?.status ?? 'failed');
  }

  private errorEvent(raw: unknown): never {
    const parsed = ResponsesErrorSchema.safeParse(raw);
    throw responsesFailure(parsed.success ? parsed.data : undefined, 'failed');
  }
}
