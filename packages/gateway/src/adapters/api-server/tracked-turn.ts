/**
 * The {@link TurnSink} the HTTP adapters hand the pipeline: it forwards the turn's events to one
 * listener (a JSON collector, an event stream, a run) and settles `done` at the first `finish` or
 * `fail`. What the listener throws is contained, as the sink contract requires.
 */
import type { AgentEvent } from '@hermes/protocol';
import type { InboundContext, InboundHandler, InboundMessage } from '../../messages.js';
import type { TurnOutcome, TurnSink } from '../../turn-sink.js';

/** A turn's end: its outcome, or why it produced none. */
export type TurnEnd =
  | { readonly kind: 'finish'; readonly outcome: TurnOutcome }
  | { readonly kind: 'fail'; readonly error: { readonly code: string; readonly message: string } };

/** Receives one turn's results; every member optional. */
export interface TurnListener {
  event?(event: AgentEvent): void;
  notice?(text: string): void;
  end?(end: TurnEnd): void;
}

/** A sink that settles once; later calls are ignored. */
export class TrackedTurn implements TurnSink {
  /** Settles with the first `finish` or `fail`. */
  readonly done: Promise<TurnEnd>;
  readonly #listener: TurnListener;
  #settle: (end: TurnEnd) => void = () => undefined;
  #ended = false;

  constructor(listener: TurnListener) {
    this.#listener = listener;
    this.done = new Promise((resolve) => {
      this.#settle = resolve;
    });
  }

  /** Whether the turn has ended. */
  get ended(): boolean {
    return this.#ended;
  }

  event(event: AgentEvent): void {
    if (!this.#ended) contained(() => this.#listener.event?.(event));
  }

  notice(text: string): void {
    if (!this.#ended) contained(() => this.#listener.notice?.(text));
  }

  finish(outcome: TurnOutcome): void {
    this.#end({ kind: 'finish', outcome });
  }

  fail(error: { readonly code: string; readonly message: string }): void {
    this.#end({ kind: 'fail', error: { code: error.code, message: error.message } });
  }

  #end(end: TurnEnd): void {
    if (this.#ended) return;
    this.#ended = true;
    contained(() => this.#listener.end?.(end));
    this.#settle(end);
  }
}

function contained(action: () => void): void {
  try {
    action();
  } catch {
    // A listener writes to a socket that may be gone; the turn itself must not notice.
  }
}

/**
 * Hands `message` to the pipeline with `turn` as its sink. The pipeline may return before the
 * turn ends (a queued message), so only the sink says when it is over; a handler that throws
 * ends the turn with a failure instead.
 *
 * @returns Settles (never rejects) when the handler has returned or thrown.
 */
export function dispatch(
  handler: InboundHandler,
  message: InboundMessage,
  context: InboundContext & { readonly sink: TrackedTurn },
  onError: (error: unknown) => void,
): Promise<void> {
  const failed = (error: unknown) => {
    onError(error);
    context.sink.fail({
      code: 'gateway.handler_failed',
      message: 'The gateway could not handle this request.',
    });
  };
  try {
    return Promise.resolve(handler(message, context)).then(() => undefined, failed);
  } catch (error) {
    failed(error);
    return Promise.resolve();
  }
}
