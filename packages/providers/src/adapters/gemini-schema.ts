/**
 * A tool's JSON Schema as the `parameters` of a Gemini function declaration. Gemini takes a
 * select subset of the OpenAPI 3.0 schema object and answers 400 INVALID_ARGUMENT to anything
 * else (`$schema`, `additionalProperties`, `$ref`, `const`, `oneOf`, type arrays, …), so the
 * schema is rebuilt from the keywords it knows, translating the few that have an equivalent.
 */

/** A JSON Schema node, as read: an open record. */
type Node = Readonly<Record<string, unknown>>;

/** The keywords Gemini's `Schema` accepts, copied as they are (after their children are cleaned). */
const KEPT = new Set([
  'type',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'default',
  'minimum',
  'maximum',
  'propertyOrdering',
]);

/**
 * The `format`s Gemini takes, by type; any other (`uri`, `email`, …) is a 400 ("only 'enum' and
 * 'date-time' are supported for STRING type"), so it is dropped.
 */
const FORMATS: Readonly<Record<string, readonly string[]>> = {
  string: ['enum', 'date-time'],
  integer: ['int32', 'int64'],
  number: ['float', 'double'],
};

/** How deep `$ref`s and nesting are followed: real tool schemas are shallow; this stops cycles. */
const MAX_DEPTH = 12;

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Resolves a local `#/$defs/X` or `#/definitions/X` reference against the root; else `undefined`. */
function resolveRef(ref: unknown, root: Node): Node | undefined {
  if (typeof ref !== 'string') return undefined;
  const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
  if (match === null) return undefined;
  const defs = root[match[1] as string];
  const target = isNode(defs) ? defs[decodeURIComponent(match[2] as string)] : undefined;
  return isNode(target) ? target : undefined;
}

/** `type: ["string", "null"]` → `type: "string"` plus `nullable`; a single type stays. */
function typeFields(type: unknown): Record<string, unknown> {
  if (!Array.isArray(type)) return type === undefined ? {} : { type };
  const real = type.filter((entry) => entry !== 'null');
  const nullable = real.length < type.length ? { nullable: true } : {};
  // Several non-null types have no Gemini spelling; leaving the type out accepts any value.
  return real.length === 1 ? { type: real[0], ...nullable } : nullable;
}

/** `enum` must list strings; `const` is a one-value enum. Other enums are dropped. */
function enumFields(node: Node): Record<string, unknown> {
  const values = Array.isArray(node.enum) ? node.enum : 'const' in node ? [node.const] : undefined;
  if (values === undefined) return {};
  return values.every((value) => typeof value === 'string') ? { enum: values } : {};
}

function cleanProperties(node: Node, root: Node, depth: number): Record<string, unknown> {
  if (!isNode(node.properties)) return {};
  const properties = Object.fromEntries(
    Object.entries(node.properties).map(([name, child]) => [name, cleanNode(child, root, depth)]),
  );
  if (Object.keys(properties).length === 0) return {};
  // A required name missing from `properties` is a 400 of its own.
  const required = Array.isArray(node.required)
    ? node.required.filter((name) => typeof name === 'string' && name in properties)
    : [];
  return { properties, ...(required.length > 0 ? { required } : {}) };
}

function cleanNode(value: unknown, root: Node, depth: number): Node {
  if (!isNode(value) || depth > MAX_DEPTH) return {};
  const target = resolveRef(value.$ref, root);
  if (target !== undefined) return cleanNode({ ...target, ...withoutRef(value) }, root, depth + 1);
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (KEPT.has(key) && key !== 'type') out[key] = field;
  }
  delete out.enum;
  Object.assign(out, typeFields(value.type), enumFields(value));
  const formats = typeof out.type === 'string' ? FORMATS[out.type.toLowerCase()] : undefined;
  if (typeof value.format === 'string' && formats?.includes(value.format) === true) {
    out.format = value.format;
  }
  Object.assign(out, cleanProperties(value, root, depth + 1));
  if (value.items !== undefined) out.items = cleanNode(value.items, root, depth + 1);
  const union = Array.isArray(value.anyOf) ? value.anyOf : value.oneOf;
  if (Array.isArray(union)) out.anyOf = union.map((member) => cleanNode(member, root, depth + 1));
  return out;
}

function withoutRef(node: Node): Node {
  const { $ref: _ref, ...rest } = node;
  return rest;
}

/**
 * `parameters` cleaned for Gemini, or `undefined` for a function without parameters: Gemini
 * rejects an OBJECT schema with no properties, and a declaration without `parameters` is how it
 * spells "takes no arguments".
 */
export function geminiParameters(parameters: Node): Node | undefined {
  const cleaned = cleanNode(parameters, parameters, 0);
  return isNode(cleaned.properties) ? cleaned : undefined;
}
