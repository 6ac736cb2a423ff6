/**
 * The REPL's input as a queue of complete entries (multi-line input already joined). Readers
 * pull: the REPL's main loop, a pump that turns type-ahead into redirects while a turn runs, and
 * prompts (approval, clarify), which take precedence over the others so an answer always reaches
 * the question that is waiting for it.
 */

/** What `next` resolves to when it was cancelled or the input ended. */
export const NO_ENTRY: unique symbol = Symbol('no entry');

interface Waiter {
  readonly resolve: (entry: string | typeof NO_ENTRY) => void;
  readonly priority: boolean;
}

/** A first-in-first-out queue of input entries with cancellable, prioritised readers. */
export class EntryQueue {
  readonly #entries: string[] = [];
  readonly #waiters: Waiter[] = [];
  #ended = false;

  /** Whether the input ended and every entry was taken. */
  get drained(): boolean {
    return this.#ended && this.#entries.length === 0;
  }

  /** Entries waiting to be read. */
  get pending(): number {
    return this.#entries.length;
  }

  /** Whether a prompt is waiting for an answer. */
  get prompting(): boolean {
    return this.#waiters.some((w) => w.priority);
  }

  /** Adds an entry; a waiting prompt gets it first, then the oldest plain reader. */
  push(entry: string): void {
    const index = this.#waiters.findIndex((w) => w.priority);
    const waiter = index >= 0 ? this.#waiters.splice(index, 1)[0] : this.#waiters.shift();
    if (waiter) waiter.resolve(entry);
    else this.#entries.push(entry);
  }

  /** The input ended: readers get {@link NO_ENTRY} once the queue is empty. */
  end(): void {
    this.#ended = true;
    if (this.#entries.length > 0) return;
    for (const waiter of this.#waiters.splice(0)) waiter.resolve(NO_ENTRY);
  }

  /**
   * The next entry, or {@link NO_ENTRY} when `signal` aborts or the input ended.
   * @param priority - a prompt's read: served before plain readers.
   */
  next(signal?: AbortSignal, priority = false): Promise<string | typeof NO_ENTRY> {
    const entry = this.#entries.shift();
    if (entry !== undefined) return Promise.resolve(entry);
    if (this.#ended || signal?.aborted) return Promise.resolve(NO_ENTRY);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        priority,
        resolve: (value) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(value);
        },
      };
      const onAbort = (): void => {
        const index = this.#waiters.indexOf(waiter);
        if (index >= 0) this.#waiters.splice(index, 1);
        resolve(NO_ENTRY);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiters.push(waiter);
    });
  }
}
