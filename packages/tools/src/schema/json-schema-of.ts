/**
 * The JSON Schema of a tool's parameters. Zod schemas are converted once per spec and the result
 * reused, because both exposure (tool definitions) and dispatch (coercion) need it.
 */
import type { JsonSchema } from '@hermes/protocol';
import { type ZodType, z } from 'zod';
import type { ToolSpec } from '../tool-spec.js';

/** True when `parameters` is a zod schema rather than a JSON Schema document. */
export function isZodSchema(parameters: unknown): parameters is ZodType {
  return (
    typeof parameters === 'object' &&
    parameters !== null &&
    '_zod' in parameters &&
    typeof (parameters as { safeParse?: unknown }).safeParse === 'function'
  );
}

const cache = new WeakMap<object, JsonSchema>();

/**
 * Converts a tool's parameters to JSON Schema: zod through `z.toJSONSchema` (the input side, so
 * fields with defaults are optional; parts JSON Schema cannot express become `{}`), JSON Schema
 * as given. Memoized per parameters object.
 */
export function parametersJsonSchema(parameters: ToolSpec['parameters']): JsonSchema {
  const key = parameters as object;
  const hit = cache.get(key);
  if (hit) return hit;
  const schema = isZodSchema(parameters)
    ? (z.toJSONSchema(parameters, { io: 'input', unrepresentable: 'any' }) as JsonSchema)
    : (parameters as JsonSchema);
  cache.set(key, schema);
  return schema;
}
