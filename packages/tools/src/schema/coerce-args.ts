/**
 * Schema-directed argument coercion. Models often send `"42"` for a number or a JSON string for
 * an object; blind conversion would break values that really are strings (a version `"1.20"`),
 * so every conversion here asks the schema first and only moves a value toward a kind the schema
 * accepts and its current kind is not.
 */
import {
  branchesOf,
  deref,
  isRecord,
  type JsonKind,
  kindOf,
  type SchemaNode,
  schemaAcceptsKind,
  schemaAllowsNull,
} from './schema-kinds.js';

/** Decimal numbers only: no hex, no `inf`/`nan`/`Infinity`, no empty string. */
const NUMBER_RE = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

function accepts(node: SchemaNode, kind: JsonKind, root: SchemaNode): boolean {
  return schemaAcceptsKind(node, kind, root);
}

/** `"42"` → 42 where a number is wanted; `undefined` when it is not a plain decimal. */
function coerceNumber(text: string, node: SchemaNode, root: SchemaNode): number | undefined {
  const trimmed = text.trim();
  if (!NUMBER_RE.test(trimmed)) return undefined;
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return undefined;
  if (Number.isInteger(value)) return accepts(node, 'integer', root) ? value : undefined;
  return accepts(node, 'number', root) ? value : undefined;
}

function coerceJson(text: string, node: SchemaNode, root: SchemaNode): unknown {
  const trimmed = text.trim();
  const wantsObject = trimmed.startsWith('{') && accepts(node, 'object', root);
  const wantsArray = trimmed.startsWith('[') && accepts(node, 'array', root);
  if (!wantsObject && !wantsArray) return undefined;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    const kind = kindOf(parsed);
    if ((kind === 'object' && wantsObject) || (kind === 'array' && wantsArray)) return parsed;
  } catch {
    // Not JSON after all: leave the string for validation to report.
  }
  return undefined;
}

/** Converts one string toward the schema, or returns it unchanged. */
function coerceString(text: string, node: SchemaNode, root: SchemaNode): unknown {
  if (accepts(node, 'string', root)) return text;
  const lower = text.trim().toLowerCase();
  if (lower === 'null' && schemaAllowsNull(node, root)) return null;
  if ((lower === 'true' || lower === 'false') && accepts(node, 'boolean', root)) {
    return lower === 'true';
  }
  const number = coerceNumber(text, node, root);
  if (number !== undefined) return number;
  const json = coerceJson(text, node, root);
  if (json !== undefined) return coerceValue(json, node, root);
  return text;
}

/** The sub-schema for property `key` of an object schema (or of any object branch). */
function propertySchema(node: SchemaNode, key: string, root: SchemaNode): SchemaNode | undefined {
  const resolved = deref(node, root);
  const props = resolved.properties;
  if (isRecord(props) && isRecord(props[key])) return deref(props[key], root);
  for (const branch of branchesOf(resolved, root)) {
    if (!accepts(branch, 'object', root)) continue;
    const found = propertySchema(branch, key, root);
    if (found) return found;
  }
  const extra = resolved.additionalProperties;
  return isRecord(extra) ? deref(extra, root) : undefined;
}

/** The sub-schema for item `index` of an array schema (or of any array branch). */
function itemSchema(node: SchemaNode, index: number, root: SchemaNode): SchemaNode | undefined {
  const resolved = deref(node, root);
  const prefix = resolved.prefixItems;
  if (Array.isArray(prefix) && index < prefix.length && isRecord(prefix[index])) {
    return deref(prefix[index], root);
  }
  if (isRecord(resolved.items)) return deref(resolved.items, root);
  if (Array.isArray(resolved.items) && isRecord(resolved.items[index])) {
    return deref(resolved.items[index], root);
  }
  for (const branch of branchesOf(resolved, root)) {
    if (!accepts(branch, 'array', root)) continue;
    const found = itemSchema(branch, index, root);
    if (found) return found;
  }
  return undefined;
}

function coerceObject(
  value: Record<string, unknown>,
  node: SchemaNode,
  root: SchemaNode,
): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const [key, child] of Object.entries(value)) {
    const childSchema = propertySchema(node, key, root);
    if (!childSchema) continue;
    const coerced = coerceValue(child, childSchema, root);
    if (coerced !== child) {
      out ??= { ...value };
      out[key] = coerced;
    }
  }
  return out ?? value;
}

function coerceArray(value: readonly unknown[], node: SchemaNode, root: SchemaNode): unknown[] {
  let out: unknown[] | undefined;
  value.forEach((item, index) => {
    const childSchema = itemSchema(node, index, root);
    if (!childSchema) return;
    const coerced = coerceValue(item, childSchema, root);
    if (coerced !== item) {
      out ??= [...value];
      out[index] = coerced;
    }
  });
  return out ?? (value as unknown[]);
}

function coerceValue(value: unknown, node: SchemaNode, root: SchemaNode): unknown {
  if (typeof value === 'string') return coerceString(value, node, root);
  if (Array.isArray(value)) return coerceArray(value, node, root);
  if (isRecord(value)) return coerceObject(value, node, root);
  return value;
}

/**
 * Converts argument values toward what `schema` (a JSON Schema) asks for, recursively:
 *
 * | value                         | becomes             | only where the schema wants           |
 * | ----------------------------- | ------------------- | ------------------------------------- |
 * | `"42"`, `"-3.5"`, `"1e3"`     | 42, -3.5, 1000      | a number (integers only for integer)  |
 * | `"true"` / `"false"`          | true / false        | a boolean                             |
 * | `"null"`                      | null                | a schema that allows null             |
 * | `'{"a":1}'`, `'[1,2]'`        | object / array      | an object / array (then recursed)     |
 *
 * A value whose kind the schema already accepts is never touched: `"1.20"` stays a string where
 * the schema says string. `"inf"`, `"nan"` and `"Infinity"` never become numbers. Unknown keys
 * and schema-less values pass through. The input is not mutated; unchanged parts are shared.
 *
 * @param schema - The tool's parameter JSON Schema (local `$ref`s are followed).
 * @param args - The parsed arguments object.
 */
export function coerceToolArgs(
  schema: Readonly<Record<string, unknown>>,
  args: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  return coerceObject(args as Record<string, unknown>, schema, schema);
}
