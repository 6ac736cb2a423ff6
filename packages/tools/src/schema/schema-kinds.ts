/**
 * Reading JSON Schema for the kinds of value it accepts. Used by argument coercion, which must
 * only ever convert a value toward what the schema asks for.
 */

/** The JSON kinds a value can have; `integer` is a number with no fraction. */
export type JsonKind = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'object' | 'array';

/** A JSON Schema node as coercion sees it: an open record. */
export type SchemaNode = Readonly<Record<string, unknown>>;

/** True for a plain object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The kind of a JSON value. */
export function kindOf(value: unknown): JsonKind | undefined {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'number':
      return Number.isInteger(value) ? 'integer' : 'number';
    case 'object':
      return 'object';
    default:
      return undefined;
  }
}

/** Follows a local `$ref` (`#/$defs/x`, `#/definitions/x`) against `root`. */
export function deref(node: SchemaNode, root: SchemaNode, depth = 0): SchemaNode {
  const ref = node.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#') || depth > 16) return node;
  let target: unknown = root;
  for (const part of ref.slice(1).split('/').filter(Boolean)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    target = isRecord(target) ? target[key] : undefined;
  }
  return isRecord(target) ? deref(target, root, depth + 1) : node;
}

/** The sub-schemas of `anyOf` / `oneOf` / `allOf`, dereferenced. */
export function branchesOf(node: SchemaNode, root: SchemaNode): SchemaNode[] {
  const out: SchemaNode[] = [];
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = node[key];
    if (!Array.isArray(list)) continue;
    for (const branch of list) if (isRecord(branch)) out.push(deref(branch, root));
  }
  return out;
}

function declaredTypes(node: SchemaNode): readonly string[] | undefined {
  const type = node.type;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string');
  return undefined;
}

function enumKinds(node: SchemaNode): JsonKind[] | undefined {
  const values = Array.isArray(node.enum) ? node.enum : 'const' in node ? [node.const] : undefined;
  if (!values) return undefined;
  return values.map(kindOf).filter((k): k is JsonKind => k !== undefined);
}

function typeAccepts(types: readonly string[], kind: JsonKind): boolean {
  if (types.includes(kind)) return true;
  return kind === 'integer' && types.includes('number');
}

/**
 * Whether `node` accepts values of `kind`. A schema that constrains nothing (`{}`) accepts all
 * kinds; composite schemas accept a kind when any branch does; OpenAPI `nullable: true` adds
 * `null`.
 */
export function schemaAcceptsKind(node: SchemaNode, kind: JsonKind, root: SchemaNode): boolean {
  const resolved = deref(node, root);
  if (kind === 'null' && resolved.nullable === true) return true;
  const branches = branchesOf(resolved, root);
  const types = declaredTypes(resolved);
  const kinds = enumKinds(resolved);
  if (types) {
    if (!typeAccepts(types, kind)) return false;
  } else if (kinds) {
    // Enum values' own kinds stand in for `type`; integer and number are one family here.
    const numeric = (k: JsonKind): boolean => k === 'integer' || k === 'number';
    if (!kinds.some((k) => k === kind || (numeric(k) && numeric(kind)))) return false;
  } else if (branches.length > 0) {
    return branches.some((branch) => schemaAcceptsKind(branch, kind, root));
  }
  return true;
}

/** Whether `node` allows `null` (type list, `nullable`, an enum holding null, a null branch). */
export function schemaAllowsNull(node: SchemaNode, root: SchemaNode): boolean {
  return schemaAcceptsKind(node, 'null', root);
}

/** Whether `node` says anything about kinds at all; `{}` does not. */
export function schemaConstrainsKind(node: SchemaNode, root: SchemaNode): boolean {
  const resolved = deref(node, root);
  return (
    declaredTypes(resolved) !== undefined ||
    enumKinds(resolved) !== undefined ||
    branchesOf(resolved, root).length > 0
  );
}
