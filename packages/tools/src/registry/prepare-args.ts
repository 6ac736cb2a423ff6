/**
 * Turning what the model sent into the arguments a handler may trust: parse a JSON string,
 * coerce toward the schema, then validate (zod) or check required fields (JSON Schema).
 */
import type { ZodError } from 'zod';
import { coerceToolArgs } from '../schema/coerce-args.js';
import { isZodSchema, parametersJsonSchema } from '../schema/json-schema-of.js';
import { isRecord } from '../schema/schema-kinds.js';
import type { ToolSpec } from '../tool-spec.js';

/** Arguments ready for the handler, or the reason they are not. */
export type PreparedArgs =
  | { readonly ok: true; readonly args: Record<string, unknown> }
  | { readonly ok: false; readonly message: string; readonly args: Record<string, unknown> };

/** Reads raw arguments: an object as is, a JSON string parsed, nothing as `{}`. */
export function parseRawArgs(
  raw: unknown,
): { ok: true; args: Record<string, unknown> } | { ok: false; message: string } {
  if (raw === undefined || raw === null) return { ok: true, args: {} };
  if (isRecord(raw)) return { ok: true, args: raw };
  if (typeof raw !== 'string') {
    return {
      ok: false,
      message: `arguments must be a JSON object, got ${Array.isArray(raw) ? 'an array' : typeof raw}`,
    };
  }
  if (raw.trim() === '') return { ok: true, args: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { ok: false, message: `arguments are not valid JSON (${why}); send one JSON object` };
  }
  if (!isRecord(parsed)) {
    return { ok: false, message: 'arguments must be a JSON object like {"name": value}' };
  }
  return { ok: true, args: parsed };
}

function formatZodIssues(error: ZodError): string {
  return error.issues
    .slice(0, 8)
    .map((issue) => {
      const path = issue.path.length === 0 ? '(arguments)' : issue.path.map(String).join('.');
      return `field "${path}": ${issue.message}`;
    })
    .join('; ');
}

function missingRequired(
  schema: Readonly<Record<string, unknown>>,
  args: Record<string, unknown>,
): string[] {
  const required = schema.required;
  if (!Array.isArray(required)) return [];
  return required.filter((key): key is string => typeof key === 'string' && !(key in args));
}

/**
 * Parses, coerces and validates `raw` for `spec`. Zod tools get the parsed output (defaults
 * applied); JSON-Schema tools get the coerced object once every required field is present.
 */
export function prepareArgs(spec: ToolSpec, raw: unknown): PreparedArgs {
  const parsed = parseRawArgs(raw);
  if (!parsed.ok)
    return {
      ok: false,
      message: `Invalid arguments for tool "${spec.name}": ${parsed.message}.`,
      args: {},
    };
  const jsonSchema = parametersJsonSchema(spec.parameters);
  const coerced = coerceToolArgs(jsonSchema, parsed.args);
  if (isZodSchema(spec.parameters)) {
    const result = spec.parameters.safeParse(coerced);
    if (result.success) return { ok: true, args: result.data as Record<string, unknown> };
    return {
      ok: false,
      message: `Invalid arguments for tool "${spec.name}": ${formatZodIssues(result.error)}. Fix these fields and call the tool again.`,
      args: coerced,
    };
  }
  const missing = missingRequired(jsonSchema, coerced);
  if (missing.length > 0) {
    return {
      ok: false,
      message: `Invalid arguments for tool "${spec.name}": missing required field(s) ${missing.map((m) => `"${m}"`).join(', ')}. Add them and call the tool again.`,
      args: coerced,
    };
  }
  return { ok: true, args: coerced };
}
