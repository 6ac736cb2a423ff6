/** A bounded text buffer that remembers how much was ever written, for incremental reads. */

/** What {@link OutputRing.since} returns. */
export interface RingRead {
  readonly text: string;
  /** Characters written after `offset` that were already dropped from the buffer. */
  readonly dropped: number;
  /** The offset to pass next time. */
  readonly next: number;
}

/** Keeps the last `maxChars` characters of a stream; older text is dropped. */
export class OutputRing {
  readonly maxChars: number;
  #text = '';
  #total = 0;

  constructor(maxChars: number) {
    if (!Number.isInteger(maxChars) || maxChars < 1) {
      throw new RangeError(`maxChars must be a positive integer, got ${maxChars}`);
    }
    this.maxChars = maxChars;
  }

  /** Characters ever written. */
  get total(): number {
    return this.#total;
  }

  append(text: string): void {
    this.#total += text.length;
    this.#text += text;
    // Trim when twice over budget, so appends stay amortized O(length).
    if (this.#text.length > 2 * this.maxChars) this.#text = this.#text.slice(-this.maxChars);
  }

  /** Everything written after `offset` that is still held. */
  since(offset: number): RingRead {
    const held = this.#held();
    const firstHeld = this.#total - held.length;
    const from = Math.max(offset, firstHeld);
    return { text: held.slice(from - firstHeld), dropped: from - offset, next: this.#total };
  }

  /** The last `lines` lines held (all held text when `lines` is absent). */
  tail(lines?: number): string {
    const held = this.#held();
    if (lines === undefined) return held;
    const parts = held.split('\n');
    const trailing = parts.at(-1) === '' ? 1 : 0;
    return parts.slice(-(lines + trailing)).join('\n');
  }

  #held(): string {
    return this.#text.length > this.maxChars ? this.#text.slice(-this.maxChars) : this.#text;
  }
}
