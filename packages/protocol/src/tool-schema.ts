/** Tool definitions exposed to the model, in the OpenAI function-calling shape. */
import { z } from 'zod';

/** A JSON Schema document. Kept open: providers accept different subsets, and adapters sanitize. */
export const JsonSchemaSchema = z.record(z.string(), z.unknown());
export type JsonSchema = z.infer<typeof JsonSchemaSchema>;

/** Tool names every provider accepts: letters, digits, `_` and `-`, at most 64 characters. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** One function a model may call. */
export const ToolSchemaSchema = z.object({
  type: z.literal('function'),
  function: z.object({
    name: z
      .string()
      .regex(TOOL_NAME_PATTERN, 'tool name must be 1-64 characters of letters, digits, "_" or "-"'),
    description: z.string(),
    parameters: JsonSchemaSchema,
    strict: z.boolean().optional(),
  }),
});
export type ToolSchema = z.infer<typeof ToolSchemaSchema>;
