/**
 * Stored Responses API answers, for `previous_response_id`, `GET` and `DELETE`: the most recent
 * 100 (least recently used goes first), as Hermes keeps them.
 */

/** How many responses are kept. */
export const STORED_RESPONSES = 100;

/** One stored response: its wire object and the conversation it continues. */
export interface StoredResponse {
  readonly id: string;
  /** The session the response's turn ran in; a follow-up continues it. */
  readonly sessionId: string;
  /** The chat of the conversation, shared by every response chained to the first. */
  readonly chatId: string;
  readonly userId: string;
  /** The `response` object as `GET /v1/responses/:id` returns it. */
  readonly body: Readonly<Record<string, unknown>>;
}

/** A bounded LRU map of responses by id. */
export class ResponseStore {
  readonly #max: number;
  readonly #entries = new Map<string, StoredResponse>();

  constructor(max = STORED_RESPONSES) {
    this.#max = max;
  }

  /** How many are stored. */
  get size(): number {
    return this.#entries.size;
  }

  /** The response, marked as recently used. */
  get(id: string): StoredResponse | undefined {
    const entry = this.#entries.get(id);
    if (entry) {
      this.#entries.delete(id);
      this.#entries.set(id, entry);
    }
    return entry;
  }

  /** Stores a response, dropping the least recently used beyond the limit. */
  put(entry: StoredResponse): void {
    this.#entries.delete(entry.id);
    this.#entries.set(entry.id, entry);
    while (this.#entries.size > this.#max) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }

  /** Forgets a response; false when it was not stored. */
  delete(id: string): boolean {
    return this.#entries.delete(id);
  }
}
