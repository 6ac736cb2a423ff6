/**
 * A chat completion streamed as OpenAI does (`chat.completion.chunk` frames, then `data: [DONE]`)
 * with Hermes' own `event: hermes.tool.progress` frames between them. Those carry `choices: []`
 * and no `id`, so the official clients, which hand every named event's data to the caller as a
 * chunk, see an empty chunk they skip (and their accumulators ignore) instead of a malformed one.
 *
 * The status and headers wait for the turn's first sign of life, so `X-Hermes-Session-Id` can
 * carry the session the turn runs in, and a refused request still gets a real error status.
 */
import type { AgentEvent } from '@hermes/protocol';
import type { ApiError } from './api-error.js';
import { SESSION_HEADER } from './api-inbound.js';
import type { SseStream } from './sse-stream.js';
import type { TurnEnd, TurnListener } from './tracked-turn.js';
import { chatUsage } from './wire-usage.js';

/** How long a stream's headers wait for the session id before it opens without it. */
export const HEADER_WAIT_MS = 2_000;

/** What every chunk of one completion shares. */
export interface ChatStreamFacts {
  readonly id: string;
  readonly created: number;
  readonly model: string;
  readonly includeUsage: boolean;
  /** Headers of the answer (CORS). */
  readonly headers: Readonly<Record<string, string>>;
  /** The session the request continues, known before the turn starts. */
  readonly sessionId?: string | undefined;
  /** Answers a turn that failed before the stream opened. */
  readonly refuse: (error: { readonly code: string; readonly message: string }) => ApiError;
  readonly sendError: (error: ApiError) => void;
  /** Default {@link HEADER_WAIT_MS}. */
  readonly headerWaitMs?: number;
}

type ToolStatus = 'started' | 'running' | 'completed' | 'failed' | 'cancelled';

/** Writes one turn as a chat completion stream. */
export class ChatStreamWriter implements TurnListener {
  readonly #stream: SseStream;
  readonly #facts: ChatStreamFacts;
  readonly #timer: NodeJS.Timeout;
  #sessionId: string | undefined;
  #wroteText = false;

  constructor(stream: SseStream, facts: ChatStreamFacts) {
    this.#stream = stream;
    this.#facts = facts;
    this.#sessionId = facts.sessionId;
    this.#timer = setTimeout(() => this.#open(), facts.headerWaitMs ?? HEADER_WAIT_MS);
    this.#timer.unref();
  }

  event(event: AgentEvent): void {
    switch (event.type) {
      case 'turn_start': {
        const announced = this.#sessionId !== undefined || !this.#stream.opened;
        this.#sessionId = event.sessionId;
        this.#open();
        // The headers went out before the session was known: say it in a frame instead.
        if (!announced) {
          const frame = { type: 'hermes.session', choices: [], session_id: event.sessionId };
          this.#stream.send(frame, 'hermes.session');
        }
        return;
      }
      case 'text_delta':
        if (!event.delta) return;
        this.#open();
        this.#wroteText = true;
        this.#chunk({ content: event.delta }, null);
        return;
      case 'tool_call_start':
        this.#progress(event.toolCallId, event.name, 'started', `${event.name}…`);
        return;
      case 'tool_call_progress':
        this.#progress(event.toolCallId, event.name, 'running', event.message);
        return;
      case 'tool_call_end': {
        const status =
          event.outcome === 'ok' ? 'completed' : event.outcome === 'error' ? 'failed' : 'cancelled';
        this.#progress(event.toolCallId, event.name, status, event.preview, event.durationMs);
        return;
      }
      default:
        return;
    }
  }

  notice(text: string): void {
    this.#open();
    this.#stream.send({ type: 'hermes.notice', choices: [], text }, 'hermes.notice');
  }

  end(end: TurnEnd): void {
    clearTimeout(this.#timer);
    if (end.kind === 'fail') {
      if (!this.#stream.opened) {
        this.#facts.sendError(this.#facts.refuse(end.error));
        return;
      }
      const error = this.#facts.refuse(end.error).body();
      this.#stream.send(error);
      this.#stream.send('[DONE]');
      this.#stream.end();
      return;
    }
    const { outcome } = end;
    this.#sessionId = outcome.sessionId;
    this.#open();
    if (!this.#wroteText && outcome.text) this.#chunk({ content: outcome.text }, null);
    this.#chunk({}, 'stop');
    if (this.#facts.includeUsage) {
      this.#stream.send({ ...this.#base(), choices: [], usage: chatUsage(outcome.usage) });
    }
    this.#stream.send('[DONE]');
    this.#stream.end();
  }

  #base() {
    return {
      id: this.#facts.id,
      object: 'chat.completion.chunk',
      created: this.#facts.created,
      model: this.#facts.model,
    };
  }

  #chunk(delta: Record<string, unknown>, finishReason: string | null): void {
    this.#stream.send({
      ...this.#base(),
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      // With include_usage OpenAI puts `usage: null` on every chunk but the last.
      ...(this.#facts.includeUsage ? { usage: null } : {}),
    });
  }

  /** Opens the stream once, with the session header when the session is known, and the role. */
  #open(): void {
    if (this.#stream.opened || this.#stream.closed) return;
    clearTimeout(this.#timer);
    this.#stream.open({
      ...this.#facts.headers,
      ...(this.#sessionId ? { [SESSION_HEADER]: this.#sessionId } : {}),
    });
    this.#chunk({ role: 'assistant', content: '' }, null);
  }

  #progress(
    toolCallId: string,
    name: string,
    status: ToolStatus,
    label: string,
    durationMs?: number,
  ): void {
    this.#open();
    this.#stream.send(
      {
        type: 'hermes.tool.progress',
        choices: [],
        tool_call_id: toolCallId,
        tool: name,
        status,
        label,
        ...(durationMs === undefined ? {} : { duration_ms: Math.round(durationMs) }),
      },
      'hermes.tool.progress',
    );
  }
}
