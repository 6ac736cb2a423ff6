/**
 * A Responses API answer streamed with OpenAI's event names, each frame `event: <type>` with a
 * running `sequence_number`. Like the chat stream, the status line waits for the turn's first
 * sign of life, so a refused request still gets a real error status.
 */
import type { AgentEvent } from '@hermes/protocol';
import type { ApiError } from './api-error.js';
import { SESSION_HEADER } from './api-inbound.js';
import { HEADER_WAIT_MS } from './chat-stream.js';
import { ResponseBuilder, type ResponseFacts } from './response-builder.js';
import type { SseStream } from './sse-stream.js';
import type { TurnEnd, TurnListener } from './tracked-turn.js';

/** What the writer needs beside the response's facts. */
export interface ResponsesStreamOptions {
  readonly headers: Readonly<Record<string, string>>;
  readonly refuse: (error: { readonly code: string; readonly message: string }) => ApiError;
  readonly sendError: (error: ApiError) => void;
  /** Receives the final object (to store it). */
  readonly onFinal: (response: Record<string, unknown>, end: TurnEnd) => void;
  /** Default {@link HEADER_WAIT_MS}. */
  readonly headerWaitMs?: number;
}

/** Streams one turn as Responses API events. */
export class ResponsesStreamWriter implements TurnListener {
  readonly #stream: SseStream;
  readonly #options: ResponsesStreamOptions;
  readonly #builder: ResponseBuilder;
  readonly #timer: NodeJS.Timeout;
  readonly #notices: string[] = [];
  #sequence = 0;
  #sessionId: string | undefined;

  constructor(stream: SseStream, facts: ResponseFacts, options: ResponsesStreamOptions) {
    this.#stream = stream;
    this.#options = options;
    this.#builder = new ResponseBuilder(facts, (type, fields) => {
      this.#stream.send({ type, sequence_number: this.#sequence++, ...fields }, type);
    });
    this.#timer = setTimeout(() => this.#open(), options.headerWaitMs ?? HEADER_WAIT_MS);
    this.#timer.unref();
  }

  event(event: AgentEvent): void {
    if (event.type === 'turn_start') this.#sessionId = event.sessionId;
    this.#open();
    this.#builder.event(event);
  }

  notice(text: string): void {
    this.#notices.push(text);
  }

  end(end: TurnEnd): void {
    clearTimeout(this.#timer);
    if (end.kind === 'fail' && !this.#stream.opened) {
      this.#options.sendError(this.#options.refuse(end.error));
      return;
    }
    if (end.kind === 'finish') this.#sessionId = end.outcome.sessionId;
    this.#open();
    const response = this.#builder.finish(end, this.#notices);
    this.#stream.end();
    this.#options.onFinal(response, end);
  }

  #open(): void {
    if (this.#stream.opened || this.#stream.closed) return;
    clearTimeout(this.#timer);
    this.#stream.open({
      ...this.#options.headers,
      ...(this.#sessionId ? { [SESSION_HEADER]: this.#sessionId } : {}),
    });
    this.#builder.start();
  }
}
