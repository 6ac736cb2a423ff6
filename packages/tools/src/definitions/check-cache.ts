/**
 * Cached availability checks. A tool's `checkFn` may probe the file system or spawn a process
 * (is the browser backend installed, is Docker up), so its answer is kept for a while: the
 * environment drifting is reflected within the TTL, not on every definitions request.
 */
import type { ToolSpec } from '../tool-spec.js';

/** How long a `checkFn` answer is trusted. */
export const CHECK_FN_TTL_MS = 30_000;

/** Options for a {@link CheckFnCache}. */
export interface CheckFnCacheOptions {
  /** Milliseconds an answer is kept; default {@link CHECK_FN_TTL_MS}. */
  readonly ttlMs?: number;
  /** The clock, in milliseconds; default `Date.now`. Tests inject their own. */
  readonly now?: () => number;
}

interface Entry {
  readonly available: boolean;
  readonly at: number;
}

/** Remembers each spec's `checkFn` answer for the TTL. A throwing check means "unavailable". */
export class CheckFnCache {
  readonly #ttlMs: number;
  readonly #now: () => number;
  // Keyed by the spec object, so re-registering a tool starts fresh and old specs are collected.
  #entries = new WeakMap<ToolSpec, Entry>();

  constructor(options: CheckFnCacheOptions = {}) {
    this.#ttlMs = options.ttlMs ?? CHECK_FN_TTL_MS;
    this.#now = options.now ?? Date.now;
  }

  /** Whether `spec` is usable now: `true` without a `checkFn`, else its (cached) answer. */
  async isAvailable(spec: ToolSpec): Promise<boolean> {
    if (!spec.checkFn) return true;
    const now = this.#now();
    const hit = this.#entries.get(spec);
    if (hit && now - hit.at < this.#ttlMs) return hit.available;
    let available: boolean;
    try {
      available = (await spec.checkFn()) === true;
    } catch {
      available = false;
    }
    this.#entries.set(spec, { available, at: now });
    return available;
  }

  /** Forgets every cached answer. */
  clear(): void {
    this.#entries = new WeakMap();
  }
}
