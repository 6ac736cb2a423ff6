/**
 * What a caller asks {@link ToolDefinitions} for, and the cache key made from it. Everything
 * that changes the answer is in the key, so a changed configuration never gets a stale answer.
 */
import { statSync } from 'node:fs';
import type { SchemaProfile } from '../schema/schema-sanitizer.js';

/** The configuration tool definitions are computed for. */
export interface ToolDefinitionsRequest {
  /** Toolsets to expose; default `['hermes-cli']`. `all` / `*` mean every tool. */
  readonly enabledToolsets?: readonly string[];
  /** Toolsets to take away (a platform bundle takes away only its non-core extras). */
  readonly disabledToolsets?: readonly string[];
  /** The profile scope the answer belongs to; default `default`. */
  readonly scope?: string;
  /** `config.yaml`: its modification time and size join the key, so edits invalidate. */
  readonly configPath?: string;
  /** An explicit configuration fingerprint, used instead of stat-ing `configPath`. */
  readonly configFingerprint?: string;
  /** Computing for a delegated subagent: the delegate-blocked tools are removed. */
  readonly delegatedChild?: boolean;
  /** Computing for a dispatcher-owned (kanban) worker: the kanban toolset is added. */
  readonly dispatcherWorker?: boolean;
  /** The model's context window in tokens; without it tool search never engages. */
  readonly contextLength?: number;
  /** Never fold tools behind tool search. */
  readonly skipToolSearch?: boolean;
  /** Provider family whose schema quirks to apply; default `default`. */
  readonly schemaProfile?: SchemaProfile;
}

/** Tools a delegated subagent never gets: no further delegation, no user, no shared memory. */
export const DELEGATE_BLOCKED_TOOLS: ReadonlySet<string> = new Set([
  'delegate_task',
  'clarify',
  'memory',
  'send_message',
  'execute_code',
]);

/** The toolsets exposed when a request names none. */
export const DEFAULT_ENABLED_TOOLSETS: readonly string[] = ['hermes-cli'];

/**
 * How long a config file's `mtime:size` is trusted before it is read again. A stat costs several
 * microseconds — more than the whole cache hit may — and an edit is picked up this soon after.
 */
export const CONFIG_STAT_TTL_MS = 250;

const statCache = new Map<string, { readonly at: number; readonly fingerprint: string }>();

/** `mtime:size` of the config file, `none` without one, `missing` when it does not exist. */
export function configFingerprint(request: ToolDefinitionsRequest, now = Date.now()): string {
  if (request.configFingerprint !== undefined) return `f:${request.configFingerprint}`;
  const path = request.configPath;
  if (path === undefined) return 'none';
  const cached = statCache.get(path);
  if (cached && now - cached.at < CONFIG_STAT_TTL_MS) return cached.fingerprint;
  const stat = statSync(path, { throwIfNoEntry: false });
  const fingerprint = stat ? `${stat.mtimeMs}:${stat.size}` : 'missing';
  statCache.set(path, { at: now, fingerprint });
  return fingerprint;
}

/** Forgets remembered config stats (tests that edit the file and look again at once). */
export function clearConfigStatCache(): void {
  statCache.clear();
}

function listKey(list: readonly string[] | undefined): string {
  if (!list || list.length === 0) return '';
  if (list.length === 1) return list[0] ?? '';
  // The same set in another order is the same question; sort only when the caller did not.
  let sorted = true;
  for (let i = 1; i < list.length && sorted; i++) sorted = (list[i - 1] ?? '') < (list[i] ?? '');
  return sorted ? list.join(',') : [...new Set(list)].sort().join(',');
}

/** The cache key of `request` at registry generation `generation`. */
export function definitionsCacheKey(request: ToolDefinitionsRequest, generation: number): string {
  // Plain concatenation: this runs on every cache hit, which must stay in the low microseconds.
  const enabled =
    request.enabledToolsets === undefined ? '\u0001default' : listKey(request.enabledToolsets);
  const flags =
    (request.delegatedChild === true ? 'c' : '-') +
    (request.dispatcherWorker === true ? 'w' : '-') +
    (request.skipToolSearch === true ? 's' : '-');
  return `${request.scope ?? 'default'}\u0000${enabled}\u0000${listKey(request.disabledToolsets)}\u0000${generation}\u0000${configFingerprint(request)}\u0000${flags}\u0000${request.contextLength ?? 0}\u0000${request.schemaProfile ?? 'default'}`;
}
