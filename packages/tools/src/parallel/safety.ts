/**
 * Parallel-safety classes for the loop's tool executor. Several calls from one model response
 * may run at once only when none needs the person (`clarify`), each is read-only or touches only
 * its own paths, and no two touch overlapping paths.
 */
import type { ToolSpec } from '../tool-spec.js';

/** Tools that never run alongside anything: they wait on a person. */
export const NEVER_PARALLEL_TOOLS: ReadonlySet<string> = new Set(['clarify']);

/** Read-only tools with no shared mutable state. */
export const PARALLEL_SAFE_TOOLS: ReadonlySet<string> = new Set([
  'read_file',
  'search_files',
  'web_search',
  'web_extract',
  'session_search',
  'vision_analyze',
  'skills_list',
  'skill_view',
  'tool_search',
  'tool_describe',
]);

/** Tools scoped by file path: parallel only when their paths do not overlap. */
export const PATH_SCOPED_TOOLS: ReadonlySet<string> = new Set(['read_file', 'write_file', 'patch']);

/** How one call may be scheduled. */
export type ParallelClass = 'never' | 'read-only' | 'path-scoped' | 'sequential';

/** A call's class, from its spec's flags first and the built-in lists second. */
export function parallelClassOf(name: string, spec?: ToolSpec): ParallelClass {
  if (spec?.neverParallel === true || NEVER_PARALLEL_TOOLS.has(name)) return 'never';
  const pathScoped = spec?.pathScoped !== undefined || PATH_SCOPED_TOOLS.has(name);
  const readOnly = spec?.parallelSafe ?? PARALLEL_SAFE_TOOLS.has(name);
  if (readOnly && !pathScoped) return 'read-only';
  if (pathScoped) return 'path-scoped';
  return 'sequential';
}

/** Whether a path-scoped call only reads (two readers of one path do not conflict). */
export function isReadOnly(name: string, spec?: ToolSpec): boolean {
  return spec?.parallelSafe ?? PARALLEL_SAFE_TOOLS.has(name);
}

/**
 * The paths a call touches: the spec's `pathScoped(args)`, else a string `path` argument;
 * `undefined` when they cannot be known (then the call runs alone).
 */
export function pathsOf(
  spec: ToolSpec | undefined,
  args: Readonly<Record<string, unknown>>,
): string[] | undefined {
  try {
    if (spec?.pathScoped) {
      const paths = spec.pathScoped(args);
      return paths.length > 0 ? [...paths] : undefined;
    }
  } catch {
    return undefined;
  }
  return typeof args.path === 'string' && args.path.length > 0 ? [args.path] : undefined;
}

function normalize(path: string): string {
  const absolute = path.startsWith('/');
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop();
      else if (!absolute) parts.push('..');
      continue;
    }
    parts.push(part);
  }
  return `${absolute ? '/' : ''}${parts.join('/')}`;
}

/**
 * Whether two paths may name the same file: equal, or one inside the other. A relative and an
 * absolute path cannot be compared without the working directory, so they count as overlapping.
 */
export function pathsOverlap(a: string, b: string): boolean {
  const x = normalize(a);
  const y = normalize(b);
  if (x.startsWith('/') !== y.startsWith('/')) return true;
  if (x.startsWith('..') || y.startsWith('..')) return true;
  if (x === y) return true;
  const within = (inner: string, outer: string): boolean =>
    outer === '' || outer === '/' || inner.startsWith(`${outer}/`);
  return within(x, y) || within(y, x);
}
