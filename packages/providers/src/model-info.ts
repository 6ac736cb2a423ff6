/** What a provider can tell about the models it serves. */
import { z } from 'zod';

const positiveInt = z.number().int().positive();

/** One model a provider offers, as read from its model listing. */
export const ModelInfoSchema = z.object({
  /** The identifier to put in {@link ChatRequest.model}. */
  id: z.string().min(1, 'model id must not be empty'),
  /** Context window in tokens, when known. */
  contextLength: positiveInt.optional(),
  /** Largest output the model may generate in one call, when known. */
  maxOutputTokens: positiveInt.optional(),
  /** The organization the service says owns the model, when reported. */
  ownedBy: z.string().optional(),
});
export type ModelInfo = z.infer<typeof ModelInfoSchema>;
