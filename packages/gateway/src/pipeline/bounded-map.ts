/** A Map that forgets its least recently set entry past `max`: per-session facts kept in memory. */
export class BoundedMap<K, V> {
  readonly #entries = new Map<K, V>();
  readonly #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  get(key: K): V | undefined {
    return this.#entries.get(key);
  }

  /** Sets `key` as the most recent entry, forgetting the oldest when over the bound. */
  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.#max) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }
}
