/**
 * The parts of Bedrock's Converse answers the adapter reads, as zod schemas: the SDK hands them
 * over as parsed JSON, but their shape is still the service's (or a proxy's) word, so it is
 * checked before use. Only what Hermes keeps is declared; unknown fields pass through.
 */
import { z } from 'zod';

const optString = z.string().optional();
const count = z.number().optional();

/** Bedrock's token usage (`metadata.usage`, the Converse `usage`). */
export const WireUsageSchema = z.object({
  inputTokens: count,
  outputTokens: count,
  totalTokens: count,
  cacheReadInputTokens: count,
  cacheWriteInputTokens: count,
});
export type WireUsage = z.infer<typeof WireUsageSchema>;

/** `contentBlockStart.start`: only tool use announces its block. */
const BlockStartSchema = z.object({
  toolUse: z.object({ toolUseId: optString, name: optString }).optional(),
});

/** A reasoning fragment: text, its signature, or redacted (encrypted) bytes. */
const ReasoningDeltaSchema = z.object({
  text: optString,
  signature: optString,
  redactedContent: z.instanceof(Uint8Array).optional(),
});

/** `contentBlockDelta.delta`: exactly one member is set. */
const BlockDeltaSchema = z.object({
  text: optString,
  toolUse: z.object({ input: optString }).optional(),
  reasoningContent: ReasoningDeltaSchema.optional(),
});
export type WireBlockDelta = z.infer<typeof BlockDeltaSchema>;

const index = z.number().int().nonnegative();

/** One `ConverseStream` event: an object with exactly one member, named by the event type. */
export const WireStreamEventSchema = z.object({
  messageStart: z.object({ role: optString }).optional(),
  contentBlockStart: z.object({ contentBlockIndex: index, start: BlockStartSchema }).optional(),
  contentBlockDelta: z.object({ contentBlockIndex: index, delta: BlockDeltaSchema }).optional(),
  contentBlockStop: z.object({ contentBlockIndex: index }).optional(),
  messageStop: z.object({ stopReason: optString }).optional(),
  metadata: z.object({ usage: WireUsageSchema.optional() }).optional(),
});
export type WireStreamEvent = z.infer<typeof WireStreamEventSchema>;

/** The exception members a stream may carry instead of an event (the SDK usually throws them). */
export const STREAM_EXCEPTION_MEMBERS: Readonly<Record<string, string>> = {
  internalServerException: 'InternalServerException',
  modelStreamErrorException: 'ModelStreamErrorException',
  validationException: 'ValidationException',
  throttlingException: 'ThrottlingException',
  serviceUnavailableException: 'ServiceUnavailableException',
};

/** One block of the Converse `output.message.content`. */
const WireContentBlockSchema = z.object({
  text: optString,
  toolUse: z
    .object({ toolUseId: optString, name: optString, input: z.unknown().optional() })
    .optional(),
  reasoningContent: z
    .object({
      reasoningText: z.object({ text: optString, signature: optString }).optional(),
      redactedContent: z.instanceof(Uint8Array).optional(),
    })
    .optional(),
});
export type WireContentBlock = z.infer<typeof WireContentBlockSchema>;

/** The Converse response body, as far as Hermes reads it. */
export const WireConverseOutputSchema = z.object({
  output: z
    .object({
      message: z.object({ content: z.array(WireContentBlockSchema).default([]) }).optional(),
    })
    .optional(),
  stopReason: optString,
  usage: WireUsageSchema.optional(),
});
export type WireConverseOutput = z.infer<typeof WireConverseOutputSchema>;
