/**
 * The agent's event channel: an `eventemitter3` emitter whose listeners can never break the turn,
 * plus async iteration for callers who prefer `for await`.
 */
import type { AgentEvent, AgentEventOf, AgentEventType } from '@hermes/protocol';
import { EventEmitter } from 'eventemitter3';

/** A listener for one event type, or for every event (`'event'`). */
export type AgentEventListener<T extends AgentEventType | 'event'> = (
  event: T extends AgentEventType ? AgentEventOf<T> : AgentEvent,
) => void;

/** Told when a listener throws; the error is otherwise swallowed. */
export type ListenerErrorReporter = (error: unknown, event: AgentEvent) => void;

/**
 * Emits {@link AgentEvent}s under their own `type` and under `'event'`. A listener that throws is
 * reported to `onListenerError` (default: `console.warn`) and skipped: observers watch the turn,
 * they never steer it.
 */
export class AgentEventBus {
  readonly #emitter = new EventEmitter();
  readonly #onListenerError: ListenerErrorReporter;

  constructor(onListenerError?: ListenerErrorReporter) {
    this.#onListenerError =
      onListenerError ??
      ((error, event) => console.warn(`[hermes] an ${event.type} listener threw:`, error));
  }

  /** Subscribes; returns the unsubscribe function. */
  on<T extends AgentEventType | 'event'>(type: T, listener: AgentEventListener<T>): () => void {
    this.#emitter.on(type, listener);
    return () => this.#emitter.off(type, listener);
  }

  /** Delivers `event` to its type's listeners, then to `'event'` listeners. Never throws. */
  emit(event: AgentEvent): void {
    this.#deliver(event.type, event);
    this.#deliver('event', event);
  }

  /** Whether anyone listens to `type` (lets hot paths skip building events nobody reads). */
  hasListeners(type: AgentEventType): boolean {
    return this.#emitter.listenerCount(type) + this.#emitter.listenerCount('event') > 0;
  }

  #deliver(channel: string, event: AgentEvent): void {
    for (const listener of this.#emitter.listeners(channel)) {
      try {
        (listener as (event: AgentEvent) => void)(event);
      } catch (error) {
        try {
          this.#onListenerError(error, event);
        } catch {
          // The reporter itself failed; nothing more can be done without risking the turn.
        }
      }
    }
  }
}
