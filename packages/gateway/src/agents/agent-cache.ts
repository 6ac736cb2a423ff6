/**
 * One Agent per active session key, kept between messages so a chat does not pay for building
 * an agent (and reloading its session) on every message, and bounded so the cache cannot grow
 * the way the Python gateway's did (300 MB to 1.6 GB in a day): LRU at `max`, an idle TTL, and
 * eviction under heap pressure. An evicted agent is closed; the next message rebuilds it from
 * the session store, which holds every message, so nothing is lost.
 */
import { getHeapStatistics } from 'node:v8';
import type { AgentFactory, AgentHandle, AgentRequest } from './agent-factory.js';

/** The heap as {@link AgentCacheOptions.heapUsage} reports it. */
export interface HeapUsage {
  readonly usedBytes: number;
  readonly limitBytes: number;
}

/** Why an agent left the cache. */
export type AgentEvictionReason = 'lru' | 'idle' | 'pressure' | 'manual' | 'replaced' | 'closed';

/** Options of {@link AgentCache}; the numbers come from `GatewaySettings.agentCache`. */
export interface AgentCacheOptions {
  readonly factory: AgentFactory;
  /** Agents kept at most; the least recently used idle one goes first. */
  readonly max: number;
  /** An agent unused this long is closed at the next {@link AgentCache.sweep}. */
  readonly idleTtlMs: number;
  /** Sweeps evict idle agents while used heap / heap limit is above this (0–1]. */
  readonly heapPressureRatio: number;
  /** Milliseconds since the epoch. Default `Date.now`. */
  readonly clock?: () => number;
  /** Default {@link defaultHeapUsage} (V8's used heap and heap limit). */
  readonly heapUsage?: () => HeapUsage;
  /** Told about every eviction; `error` when the agent's `close()` failed. */
  readonly onEvict?: (key: string, reason: AgentEvictionReason, error?: unknown) => void;
  /**
   * Also busy (never evicted) while this says so, beside a running turn: pass the lane's
   * `isHeld` so an agent handed out for a turn that has not started yet stays.
   */
  readonly isBusy?: (key: string) => boolean;
}

interface Entry {
  readonly key: string;
  /** Set while the factory is building; the same promise is given to every caller. */
  building: Promise<AgentHandle> | undefined;
  handle: AgentHandle | undefined;
  lastUsed: number;
  /** Left the cache; its agent is closed or closing. */
  removed: boolean;
}

/** V8's view of this isolate's heap: what `used_heap_size` of `heap_size_limit` is in use. */
export function defaultHeapUsage(): HeapUsage {
  const stats = getHeapStatistics();
  return { usedBytes: stats.used_heap_size, limitBytes: stats.heap_size_limit };
}

/**
 * The gateway's agents, by session key. The caller runs `sweep()` on a timer (the Gateway does,
 * every minute); a sweep looks at each entry once and at the heap once when nothing is over.
 */
export class AgentCache {
  readonly #options: AgentCacheOptions;
  readonly #clock: () => number;
  readonly #heapUsage: () => HeapUsage;
  /** In LRU order: the first entry is the least recently used. */
  readonly #entries = new Map<string, Entry>();
  readonly #closing = new Set<Promise<void>>();

  constructor(options: AgentCacheOptions) {
    if (!Number.isInteger(options.max) || options.max < 1) {
      throw new RangeError(`max must be a positive integer, not ${options.max}`);
    }
    this.#options = options;
    this.#clock = options.clock ?? Date.now;
    this.#heapUsage = options.heapUsage ?? defaultHeapUsage;
  }

  /** Cached agents, built or being built. */
  get size(): number {
    return this.#entries.size;
  }

  /** Keys from least to most recently used. */
  keys(): readonly string[] {
    return [...this.#entries.keys()];
  }

  /** The agent cached for `key`, if built; does not count as a use. */
  peek(key: string): AgentHandle | undefined {
    return this.#entries.get(key)?.handle;
  }

  /**
   * The agent for `key`, built by the factory on first use (once, however many callers ask at
   * the same time). A cached agent on another session than `request.sessionId` is replaced,
   * unless its turn is still running.
   * A failed build is forgotten, so the next call tries again.
   */
  async get(key: string, request: AgentRequest): Promise<AgentHandle> {
    const entry = this.#entries.get(key);
    if (entry !== undefined) {
      if (!this.#isStale(entry, request) || this.#isBusy(entry)) {
        this.#touch(entry);
        return entry.building ?? (entry.handle as AgentHandle);
      }
      void this.#remove(entry, 'replaced');
    }
    return this.#build(key, request);
  }

  /**
   * Closes and forgets `key`'s agent (`/new`, a reset). Resolves `false` when nothing is cached
   * or its turn is running (interrupt it first).
   */
  async evict(key: string): Promise<boolean> {
    const entry = this.#entries.get(key);
    if (entry === undefined || this.#isBusy(entry)) return false;
    await this.#remove(entry, 'manual');
    return true;
  }

  /**
   * Closes idle agents unused for `idleTtlMs`, any beyond `max`, then least recently used ones
   * while the heap is above `heapPressureRatio`. Never touches an agent whose turn is running.
   * Without a garbage collection between evictions the heap reading does not fall, so under
   * real pressure one sweep releases every idle agent: each is rebuilt from the store on its
   * next message, which costs a build, never a message. Resolves to the number evicted.
   */
  async sweep(): Promise<number> {
    const now = this.#clock();
    const closes: Promise<void>[] = [];
    for (const entry of [...this.#entries.values()]) {
      if (now - entry.lastUsed >= this.#options.idleTtlMs && !this.#isBusy(entry)) {
        closes.push(this.#remove(entry, 'idle'));
      }
    }
    closes.push(...this.#trimToMax());
    while (this.#underPressure()) {
      const victim = this.#leastRecentIdle();
      if (victim === undefined) break;
      closes.push(this.#remove(victim, 'pressure'));
    }
    await Promise.all(closes);
    return closes.length;
  }

  /** Closes every agent, running or not (shutdown, after the drain). The cache stays usable. */
  async closeAll(): Promise<void> {
    const entries = [...this.#entries.values()];
    await Promise.all(entries.map((entry) => this.#remove(entry, 'closed')));
    await Promise.all([...this.#closing]);
  }

  #isStale(entry: Entry, request: AgentRequest): boolean {
    const current = entry.handle?.agent.sessionId;
    return (
      request.sessionId !== undefined && current !== undefined && current !== request.sessionId
    );
  }

  #touch(entry: Entry): void {
    entry.lastUsed = this.#clock();
    this.#entries.delete(entry.key);
    this.#entries.set(entry.key, entry);
  }

  #build(key: string, request: AgentRequest): Promise<AgentHandle> {
    const entry: Entry = {
      key,
      building: undefined,
      handle: undefined,
      lastUsed: this.#clock(),
      removed: false,
    };
    const building = (async () => this.#options.factory(request))().then(
      (handle) => {
        entry.building = undefined;
        entry.handle = handle;
        if (entry.removed) {
          // closeAll ran while it was building: nobody will hand it out again.
          void this.#close(entry, handle, 'closed');
          return handle;
        }
        this.#trimToMax(entry);
        return handle;
      },
      (error: unknown) => {
        entry.removed = true;
        if (this.#entries.get(key) === entry) this.#entries.delete(key);
        throw error;
      },
    );
    entry.building = building;
    this.#entries.set(key, entry);
    return building;
  }

  /**
   * Evicts least recently used idle agents while more than `max` are cached, never `keep` (the
   * agent being handed out right now).
   */
  #trimToMax(keep?: Entry): Promise<void>[] {
    const closes: Promise<void>[] = [];
    while (this.#entries.size > this.#options.max) {
      const victim = this.#leastRecentIdle(keep);
      if (victim === undefined) break; // every other agent is busy: over `max` until one ends
      closes.push(this.#remove(victim, 'lru'));
    }
    return closes;
  }

  #underPressure(): boolean {
    if (this.#entries.size === 0) return false;
    const { usedBytes, limitBytes } = this.#heapUsage();
    return limitBytes > 0 && usedBytes / limitBytes > this.#options.heapPressureRatio;
  }

  #leastRecentIdle(keep?: Entry): Entry | undefined {
    for (const entry of this.#entries.values()) {
      if (entry !== keep && !this.#isBusy(entry)) return entry;
    }
    return undefined;
  }

  #isBusy(entry: Entry): boolean {
    if (entry.building !== undefined) return true;
    if (entry.handle?.agent.running) return true;
    return this.#options.isBusy?.(entry.key) ?? false;
  }

  /** Forgets `entry` now (so a later `get` builds afresh) and closes its agent, once. */
  #remove(entry: Entry, reason: AgentEvictionReason): Promise<void> {
    if (entry.removed) return Promise.resolve();
    entry.removed = true;
    if (this.#entries.get(entry.key) === entry) this.#entries.delete(entry.key);
    if (entry.handle !== undefined) return this.#close(entry, entry.handle, reason);
    // Still building (closeAll): the build sees it was removed and closes the agent itself.
    return (entry.building ?? Promise.resolve()).then(
      () => undefined,
      () => undefined,
    );
  }

  #close(entry: Entry, handle: AgentHandle, reason: AgentEvictionReason): Promise<void> {
    const closing = (async () => {
      let failure: unknown;
      try {
        await handle.close();
      } catch (error) {
        failure = error;
      }
      this.#options.onEvict?.(entry.key, reason, failure);
    })();
    this.#closing.add(closing);
    void closing.finally(() => this.#closing.delete(closing));
    return closing;
  }
}
