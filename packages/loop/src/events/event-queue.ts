/** Turns pushed events into an async iterator that ends when the producer closes it. */
import type { AgentEvent } from '@hermes/protocol';

/** An unbounded FIFO of events with one async consumer. */
export class EventQueue implements AsyncIterableIterator<AgentEvent> {
  readonly #items: AgentEvent[] = [];
  #waiter: ((result: IteratorResult<AgentEvent>) => void) | undefined;
  #closed = false;

  /** Adds an event; ignored after {@link close}. */
  push(event: AgentEvent): void {
    if (this.#closed) return;
    const waiter = this.#waiter;
    if (waiter) {
      this.#waiter = undefined;
      waiter({ value: event, done: false });
    } else {
      this.#items.push(event);
    }
  }

  /** Ends the iteration once the queued events are consumed. */
  close(): void {
    this.#closed = true;
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.({ value: undefined, done: true });
  }

  next(): Promise<IteratorResult<AgentEvent>> {
    const item = this.#items.shift();
    if (item) return Promise.resolve({ value: item, done: false });
    if (this.#closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.#waiter = resolve;
    });
  }

  return(): Promise<IteratorResult<AgentEvent>> {
    this.close();
    this.#items.length = 0;
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<AgentEvent> {
    return this;
  }
}
