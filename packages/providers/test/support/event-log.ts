/**
 * Records the events of a model call and lets a test wait for the moment it means — "the text so
 * far is exactly this" — as an event, not by polling a clock.
 */
import type { StreamEvent } from '../../src/index.js';

interface Waiter {
  readonly text: string;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/** Pass {@link EventLog.onEvent} to `chat`; await {@link EventLog.textReaches} to sync with it. */
export class EventLog {
  /** Every event, in order. */
  readonly events: StreamEvent[] = [];
  private waiters: Waiter[] = [];

  /** The `onEvent` handler; an arrow so it can be passed as is. */
  readonly onEvent = (event: StreamEvent): void => {
    this.events.push(event);
    if (event.type === 'text_delta' || event.type === 'done') this.settleWaiters();
  };

  /** The visible text streamed so far. */
  text(): string {
    return this.events.flatMap((e) => (e.type === 'text_delta' ? [e.delta] : [])).join('');
  }

  /**
   * Resolves as soon as the streamed text is exactly `text`. Rejects, naming what arrived, once
   * it can no longer get there (more or other text, or the end of the answer), so a wrong script
   * fails at once instead of at the test timeout.
   */
  textReaches(text: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ text, resolve, reject });
      this.settleWaiters();
    });
  }

  private settleWaiters(): void {
    const now = this.text();
    const ended = this.events.some((e) => e.type === 'done');
    this.waiters = this.waiters.filter((waiter) => {
      if (now === waiter.text) waiter.resolve();
      else if (ended || !waiter.text.startsWith(now)) {
        waiter.reject(
          new Error(`waited for text ${JSON.stringify(waiter.text)}, got ${JSON.stringify(now)}`),
        );
      } else return true;
      return false;
    });
  }
}
