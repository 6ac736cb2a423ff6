/**
 * The {@link SessionLane} of a single gateway process: one running turn per session key,
 * at most `maxConcurrent` turns overall, waiters served in the order they arrived.
 */
import { type LaneLease, SessionLane } from './session-lane.js';

/** Options of {@link InProcessLane}. */
export interface InProcessLaneOptions {
  /** Turns running at once across all keys (`gateway.max_concurrent_turns`). */
  readonly maxConcurrent: number;
}

interface Waiter {
  readonly key: string;
  readonly resolve: (lease: LaneLease) => void;
  readonly reject: (error: unknown) => void;
  readonly signal: AbortSignal | undefined;
  readonly onAbort: () => void;
}

function abortError(key: string): Error {
  return new DOMException(`Waiting for the session lane of ${key} was aborted.`, 'AbortError');
}

/**
 * Serializes turns per key in this process. A waiter is granted when its key is free, a slot is
 * free, and no earlier waiter for the same key is still waiting (FIFO per key); free slots go to
 * waiters in arrival order across keys.
 */
export class InProcessLane extends SessionLane {
  readonly #max: number;
  readonly #held = new Set<string>();
  /** Waiters in arrival order. Short in practice: bounded by messages in flight. */
  #queue: Waiter[] = [];

  constructor(options: InProcessLaneOptions) {
    super();
    if (!Number.isInteger(options.maxConcurrent) || options.maxConcurrent < 1) {
      throw new RangeError(
        `maxConcurrent must be a positive integer, not ${options.maxConcurrent}`,
      );
    }
    this.#max = options.maxConcurrent;
  }

  /** Acquires still waiting (for `/health`'s queued count). */
  get waiting(): number {
    return this.#queue.length;
  }

  acquire(key: string, signal?: AbortSignal): Promise<LaneLease> {
    if (signal?.aborted) return Promise.reject(abortError(key));
    if (this.#canGrantNow(key)) return Promise.resolve(this.#grant(key));
    return new Promise<LaneLease>((resolve, reject) => {
      const waiter: Waiter = {
        key,
        resolve,
        reject,
        signal,
        onAbort: () => this.#abandon(waiter),
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.#queue.push(waiter);
    });
  }

  isHeld(key: string): boolean {
    return this.#held.has(key);
  }

  held(): readonly string[] {
    return [...this.#held];
  }

  /** Free now, and nobody queued ahead for the same key. */
  #canGrantNow(key: string): boolean {
    return (
      !this.#held.has(key) &&
      this.#held.size < this.#max &&
      !this.#queue.some((waiter) => waiter.key === key)
    );
  }

  #grant(key: string): LaneLease {
    this.#held.add(key);
    let released = false;
    return {
      key,
      release: () => {
        if (released) return;
        released = true;
        this.#held.delete(key);
        this.#pump();
      },
    };
  }

  /** Grants every waiter that can run now, in arrival order. */
  #pump(): void {
    if (this.#held.size >= this.#max || this.#queue.length === 0) return;
    const skipped = new Set<string>();
    const remaining: Waiter[] = [];
    for (const waiter of this.#queue) {
      const blocked =
        this.#held.size >= this.#max || this.#held.has(waiter.key) || skipped.has(waiter.key);
      if (blocked) {
        // Later waiters for this key stay behind this one.
        skipped.add(waiter.key);
        remaining.push(waiter);
        continue;
      }
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.resolve(this.#grant(waiter.key));
    }
    this.#queue = remaining;
  }

  /** An aborted waiter leaves the queue as if it had never asked. */
  #abandon(waiter: Waiter): void {
    const index = this.#queue.indexOf(waiter);
    if (index < 0) return;
    this.#queue.splice(index, 1);
    waiter.reject(abortError(waiter.key));
    this.#pump();
  }
}
