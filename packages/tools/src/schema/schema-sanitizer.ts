/**
 * Adapting parameter schemas to what providers accept. Providers take different subsets of JSON
 * Schema (Gemini rejects `$schema`, `additionalProperties` and type lists; several reject an
 * object without `properties`), so definitions pass through here before they are sent.
 */
import type { JsonSchema } from '@hermes/protocol';
import { deref, isRecord, type SchemaNode } from './schema-kinds.js';

/** Which provider family's quirks to apply. */
export type SchemaProfile = 'default' | 'gemini';

/** Keywords no provider needs: metadata about the schema rather than about the arguments. */
const ALWAYS_DROPPED = ['$schema', '$id', '$comment', '$anchor', '$dynamicAnchor'];

/** Keywords Gemini's function declarations reject. */
export const GEMINI_UNSUPPORTED_KEYWORDS: readonly string[] = [
  'additionalProperties',
  'unevaluatedProperties',
  'patternProperties',
  'propertyNames',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'const',
  'default',
  'examples',
  'if',
  'then',
  'else',
  'not',
  'dependentRequired',
  'dependentSchemas',
  'contentEncoding',
  'contentMediaType',
];

/** Options for {@link sanitizeToolSchema}. */
export interface SanitizeSchemaOptions {
  /** Provider family; default `default`. */
  readonly profile?: SchemaProfile;
  /** Extra keywords to drop everywhere in the tree. */
  readonly dropKeywords?: readonly string[];
}

/** Keys whose values are maps of name → schema rather than schemas. */
const SCHEMA_MAPS = new Set(['properties', '$defs', 'definitions', 'patternProperties']);
/** Keys whose values are lists of schemas. */
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);

interface Walk {
  readonly root: SchemaNode;
  readonly drop: ReadonlySet<string>;
  readonly gemini: boolean;
  readonly depth: number;
}

function cleanNode(node: SchemaNode, walk: Walk): Record<string, unknown> {
  // Inline local references: several providers cannot follow `$ref`. Depth-capped for cycles.
  const source = walk.depth < 24 ? deref(node, walk.root) : {};
  const out: Record<string, unknown> = {};
  const next = { ...walk, depth: walk.depth + 1 };
  for (const [key, value] of Object.entries(source)) {
    if (walk.drop.has(key) || key === '$ref' || key === '$defs' || key === 'definitions') continue;
    if (SCHEMA_MAPS.has(key) && isRecord(value)) {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, isRecord(v) ? cleanNode(v, next) : v]),
      );
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      out[key] = value.map((v) => (isRecord(v) ? cleanNode(v, next) : v));
    } else if ((key === 'items' || key === 'additionalProperties') && isRecord(value)) {
      out[key] = cleanNode(value, next);
    } else {
      // Copied so the cached, frozen definitions never share (and freeze) the caller's objects.
      out[key] = typeof value === 'object' && value !== null ? structuredClone(value) : value;
    }
  }
  dropSafeIntegerBounds(out);
  if (walk.gemini) geminiTypeList(out);
  if (out.type === 'array' && out.items === undefined) out.items = {};
  if (out.type === 'object' && isRecord(out.properties) && Array.isArray(out.required)) {
    const props = out.properties;
    out.required = out.required.filter((r) => typeof r === 'string' && r in props);
  }
  return out;
}

/** zod writes ±2^53−1 bounds on every int; they carry no meaning and cost tokens. */
function dropSafeIntegerBounds(node: Record<string, unknown>): void {
  if (node.maximum === Number.MAX_SAFE_INTEGER) delete node.maximum;
  if (node.minimum === Number.MIN_SAFE_INTEGER) delete node.minimum;
}

/** Gemini wants one `type` plus `nullable: true`, not `["string", "null"]`. */
function geminiTypeList(node: Record<string, unknown>): void {
  if (!Array.isArray(node.type)) return;
  const types = node.type.filter((t) => t !== 'null');
  if (types.length < node.type.length) node.nullable = true;
  node.type = types.length === 1 ? types[0] : types.length === 0 ? 'string' : types;
}

/**
 * Returns a cleaned copy of a tool's parameter schema: top level `type: "object"` with a
 * `properties` map (created when missing), `required` limited to declared properties, local
 * `$ref`s inlined, schema metadata removed, arrays given `items`, zod's safe-integer bounds
 * dropped, and the profile's unsupported keywords removed. The input is not modified.
 */
export function sanitizeToolSchema(
  schema: JsonSchema,
  options: SanitizeSchemaOptions = {},
): JsonSchema {
  const gemini = options.profile === 'gemini';
  const drop = new Set([
    ...ALWAYS_DROPPED,
    ...(gemini ? GEMINI_UNSUPPORTED_KEYWORDS : []),
    ...(options.dropKeywords ?? []),
  ]);
  const root = isRecord(schema) ? schema : {};
  const out = cleanNode(root, { root, drop, gemini, depth: 0 });
  if (out.type !== 'object') {
    out.type = 'object';
  }
  if (!isRecord(out.properties)) out.properties = {};
  if (out.required !== undefined && !Array.isArray(out.required)) delete out.required;
  return out;
}
