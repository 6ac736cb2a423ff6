/**
 * The parts of the Messages API's answers the adapter reads, as zod schemas: the stream events
 * and the `Message` object. The SDK hands both over as unchecked JSON, and what a server (or a
 * proxy in front of it) sends is outside input. The schemas are lenient where leniency is safe:
 * unknown fields are ignored, unknown block and delta types pass through (the reader skips them),
 * and a malformed usage counter reads as absent instead of failing the whole answer.
 */
import { z } from 'zod';

/** A token counter; anything but a number (or null) counts as not reported. */
const counter = z.number().nullish().catch(undefined);

/** `usage` of `message_start`, `message_delta` and a `Message`. */
export const WireUsageSchema = z.object({
  input_tokens: counter,
  output_tokens: counter,
  cache_read_input_tokens: counter,
  cache_creation_input_tokens: counter,
  output_tokens_details: z.object({ thinking_tokens: counter }).nullish().catch(undefined),
});
export type WireUsage = z.infer<typeof WireUsageSchema>;

/**
 * A content block as `content_block_start` opens it or a `Message` holds it. Only the fields of
 * the block types the adapter understands (text, thinking, redacted thinking, tool use) are read.
 */
export const WireBlockSchema = z.object({
  type: z.string(),
  text: z.string().optional(),
  thinking: z.string().optional(),
  signature: z.string().optional(),
  data: z.string().optional(),
  id: z.string().optional(),
  name: z.string().optional(),
  input: z.unknown().optional(),
});
export type WireBlock = z.infer<typeof WireBlockSchema>;

/** The payload of `content_block_delta`. */
export const WireDeltaSchema = z.object({
  type: z.string(),
  text: z.string().optional(),
  thinking: z.string().optional(),
  signature: z.string().optional(),
  partial_json: z.string().optional(),
});
export type WireDelta = z.infer<typeof WireDeltaSchema>;

const blockIndex = z.number().int().nonnegative();

/** The stream events the adapter acts on, discriminated by `type`. */
export const WireStreamEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('message_start'),
    message: z.object({
      id: z.string().optional(),
      model: z.string().optional(),
      usage: WireUsageSchema.nullish(),
    }),
  }),
  z.object({
    type: z.literal('content_block_start'),
    index: blockIndex,
    content_block: WireBlockSchema,
  }),
  z.object({ type: z.literal('content_block_delta'), index: blockIndex, delta: WireDeltaSchema }),
  z.object({ type: z.literal('content_block_stop'), index: blockIndex }),
  z.object({
    type: z.literal('message_delta'),
    delta: z.object({ stop_reason: z.string().nullish() }),
    usage: WireUsageSchema.nullish(),
  }),
  z.object({ type: z.literal('message_stop') }),
  z.object({
    type: z.literal('error'),
    error: z.looseObject({ type: z.string().optional(), message: z.string().optional() }),
  }),
]);
export type WireStreamEvent = z.infer<typeof WireStreamEventSchema>;

/** The event types {@link WireStreamEventSchema} knows; any other type is skipped unread. */
export const KNOWN_STREAM_EVENT_TYPES: ReadonlySet<string> = new Set([
  'message_start',
  'content_block_start',
  'content_block_delta',
  'content_block_stop',
  'message_delta',
  'message_stop',
  'error',
]);

/** A non-streamed answer: the `Message` object. */
export const WireMessageSchema = z.object({
  type: z.literal('message'),
  id: z.string().optional(),
  model: z.string().optional(),
  content: z.array(WireBlockSchema),
  stop_reason: z.string().nullish(),
  usage: WireUsageSchema.nullish(),
});
export type WireMessage = z.infer<typeof WireMessageSchema>;
