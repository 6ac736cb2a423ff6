/** Finding keys in config.yaml that no schema knows (probably typos), and the key meant. */
import { z } from 'zod';
import type { KeySegment } from './config-document.js';

/** One key no schema knows. */
export interface UnknownKey {
  readonly path: readonly KeySegment[];
  /** The closest known key at that level, when one is close. */
  readonly suggestion?: string;
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable) {
      current = current.unwrap() as z.ZodType;
    } else if (current instanceof z.ZodDefault) {
      current = current.unwrap() as z.ZodType;
    } else return current;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Edit distance, for "did you mean". */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

function closest(word: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const candidate of known) {
    const d = distance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/**
 * Walks `value` alongside `schema` and lists every key the schema's objects do not declare.
 * Top-level keys in `skipTop` (sections read elsewhere, or checked by a strict schema) are not
 * entered.
 */
export function findUnknownKeys(
  schema: z.ZodType,
  value: unknown,
  skipTop: ReadonlySet<string>,
  path: readonly KeySegment[] = [],
): UnknownKey[] {
  const current = unwrap(schema);
  const found: UnknownKey[] = [];
  if (current instanceof z.ZodObject && isPlainObject(value)) {
    const shape = current.shape as Record<string, z.ZodType>;
    for (const [key, item] of Object.entries(value)) {
      if (path.length === 0 && skipTop.has(key)) continue;
      const child = shape[key];
      if (child === undefined) {
        const suggestion = closest(key, Object.keys(shape));
        found.push({ path: [...path, key], ...(suggestion ? { suggestion } : {}) });
      } else found.push(...findUnknownKeys(child, item, skipTop, [...path, key]));
    }
  } else if (current instanceof z.ZodArray && Array.isArray(value)) {
    value.forEach((item, index) => {
      found.push(...findUnknownKeys(current.element as z.ZodType, item, skipTop, [...path, index]));
    });
  }
  return found;
}

/** The object schema `path` leads to in `schema` (through objects and arrays), if any. */
function objectAt(schema: z.ZodType, path: readonly KeySegment[]): z.ZodObject | undefined {
  let current = unwrap(schema);
  for (const segment of path) {
    if (current instanceof z.ZodObject && typeof segment === 'string') {
      const child = (current.shape as Record<string, z.ZodType | undefined>)[segment];
      if (child === undefined) return undefined;
      current = unwrap(child);
    } else if (current instanceof z.ZodArray && typeof segment === 'number') {
      current = unwrap(current.element as z.ZodType);
    } else if (current instanceof z.ZodRecord && typeof segment === 'string') {
      // Any name is a valid record key (`credential_pool.<provider>`); go on to its entry.
      current = unwrap(current.valueType as z.ZodType);
    } else return undefined;
  }
  return current instanceof z.ZodObject ? current : undefined;
}

/**
 * The key `path` (an unknown key) probably meant: the closest key its parent object declares,
 * as a whole key path, or undefined when none is close. For unknown keys a strict section's own
 * schema reports.
 */
export function suggestKeyPath(
  schema: z.ZodType,
  path: readonly KeySegment[],
): KeySegment[] | undefined {
  const last = path.at(-1);
  if (typeof last !== 'string') return undefined;
  const parent = objectAt(schema, path.slice(0, -1));
  const meant = parent ? closest(last, Object.keys(parent.shape)) : undefined;
  return meant === undefined ? undefined : [...path.slice(0, -1), meant];
}
