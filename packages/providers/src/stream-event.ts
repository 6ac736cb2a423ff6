/**
 * The normalized stream every provider reports while it answers. Each content block (a run of
 * text, a run of reasoning, one tool call) opens with `*_start`, grows with `*_delta`, and closes
 * with `*_end`; `usage` may arrive at any point; `done` comes exactly once, last.
 *
 * Ordering rules, which the contract suite checks:
 * - A block is identified by its kind (text, reasoning, tool call) and `index`. Indices count
 *   from 0 within each kind, in the order the blocks appear in the final message (for tool
 *   calls: their position in `tool_calls`).
 * - A block starts once; its deltas and its end come after its start and before `done`; nothing
 *   follows its end. Several blocks may be open at once (interleaved tool calls).
 * - A `*_end` carries the whole block, equal to the concatenation of its deltas.
 * - Every block is closed before `done`. If the call fails or is aborted, `chat` rejects and no
 *   `done` is emitted; the events already delivered stay valid (they hold the partial text).
 */
import { FinishReasonSchema, ToolCallSchema, UsageSchema } from '@hermes/protocol';
import { z } from 'zod';

const index = z.number().int().nonnegative();

/** A text block opened. */
export const StreamTextStartEventSchema = z.object({ type: z.literal('text_start'), index });
/** A fragment of visible answer text. */
export const StreamTextDeltaEventSchema = z.object({
  type: z.literal('text_delta'),
  index,
  delta: z.string(),
});
/** A text block closed; `text` is the whole block. */
export const StreamTextEndEventSchema = z.object({
  type: z.literal('text_end'),
  index,
  text: z.string(),
});

/** A reasoning block opened. */
export const StreamReasoningStartEventSchema = z.object({
  type: z.literal('reasoning_start'),
  index,
});
/** A fragment of exposed reasoning. */
export const StreamReasoningDeltaEventSchema = z.object({
  type: z.literal('reasoning_delta'),
  index,
  delta: z.string(),
});
/** A reasoning block closed; `text` is the whole block. */
export const StreamReasoningEndEventSchema = z.object({
  type: z.literal('reasoning_end'),
  index,
  text: z.string(),
});

/** A tool call opened: its id and function name are known, its arguments follow. */
export const StreamToolCallStartEventSchema = z.object({
  type: z.literal('tool_call_start'),
  index,
  id: z.string().min(1, 'tool call id must not be empty'),
  name: z.string(),
});
/** A fragment of a tool call's raw JSON arguments. */
export const StreamToolCallDeltaEventSchema = z.object({
  type: z.literal('tool_call_delta'),
  index,
  argumentsDelta: z.string(),
});
/** A tool call closed; `toolCall` is complete, with the raw arguments the model wrote. */
export const StreamToolCallEndEventSchema = z.object({
  type: z.literal('tool_call_end'),
  index,
  toolCall: ToolCallSchema,
});

/** Token usage so far (cumulative for the call; a later event supersedes an earlier one). */
export const StreamUsageEventSchema = z.object({ type: z.literal('usage'), usage: UsageSchema });

/** The answer is complete. Always the last event of a successful call. */
export const StreamDoneEventSchema = z.object({
  type: z.literal('done'),
  finishReason: FinishReasonSchema,
});

/** Every stream event, discriminated by `type`. */
export const StreamEventSchema = z.discriminatedUnion('type', [
  StreamTextStartEventSchema,
  StreamTextDeltaEventSchema,
  StreamTextEndEventSchema,
  StreamReasoningStartEventSchema,
  StreamReasoningDeltaEventSchema,
  StreamReasoningEndEventSchema,
  StreamToolCallStartEventSchema,
  StreamToolCallDeltaEventSchema,
  StreamToolCallEndEventSchema,
  StreamUsageEventSchema,
  StreamDoneEventSchema,
]);
export type StreamEvent = z.infer<typeof StreamEventSchema>;

/** The `type` tags of all stream events. */
export type StreamEventType = StreamEvent['type'];

/** The stream event with a given `type` tag. */
export type StreamEventOf<T extends StreamEventType> = Extract<StreamEvent, { type: T }>;

/** The three kinds of content block a stream carries. */
export type StreamBlockKind = 'text' | 'reasoning' | 'tool_call';
