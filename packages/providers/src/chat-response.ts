/** The normalized answer every provider resolves to, whatever its wire format. */
import { AssistantMessageSchema, FinishReasonSchema, UsageSchema } from '@hermes/protocol';
import { z } from 'zod';

/**
 * One model call's result: the assistant message in Hermes' OpenAI-shaped vocabulary (text,
 * `tool_calls`, reasoning), the normalized finish reason, token usage with every counter present,
 * and who answered. Provider output is outside input, so hosts may check it with this schema.
 */
export const ChatResponseSchema = z.object({
  /** The assistant's message, ready to append to the conversation. */
  message: AssistantMessageSchema,
  /** Why the model stopped, normalized across providers. */
  finishReason: FinishReasonSchema,
  /** Token usage of this call; zeros where the provider reported nothing. */
  usage: UsageSchema,
  /** The model that actually answered (may differ from the requested alias). */
  model: z.string().min(1, 'model must not be empty'),
  /** The name of the provider that actually answered (a fallback chain reports the member). */
  provider: z.string().min(1, 'provider must not be empty'),
  /** The service's identifier of this response, when it gives one. */
  responseId: z.string().optional(),
});
export type ChatResponse = z.infer<typeof ChatResponseSchema>;
