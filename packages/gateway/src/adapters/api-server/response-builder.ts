/**
 * One turn as a Responses API `response`: the answer's text bursts become `message` items, and
 * the tools the agent ran become `function_call` items (already executed, `status: completed`)
 * each followed by its `function_call_output`, as Hermes reports them. The same builder serves
 * the JSON answer and, given an `emit`, the event stream (`response.output_item.added`,
 * `response.output_text.delta`, …) whose events add up to the same final object.
 */
import type { AgentEvent } from '@hermes/protocol';
import { newId } from './api-inbound.js';
import type { TurnEnd } from './tracked-turn.js';
import { responsesUsage } from './wire-usage.js';

/** What the response says about its request. */
export interface ResponseFacts {
  readonly id: string;
  readonly createdAt: number;
  readonly model: string;
  readonly previousResponseId: string | null;
  readonly instructions: string | null;
  readonly store: boolean;
  readonly user?: string | undefined;
}

/** Writes one stream event; `fields` go beside `type` and `sequence_number`. */
export type ResponseEmit = (type: string, fields: Record<string, unknown>) => void;

interface TextPart {
  type: 'output_text';
  text: string;
  annotations: never[];
  logprobs: never[];
}
type Item = Record<string, unknown> & { type: string; id: string };

/** The finished response's status, and the stream event that announces it. */
type Final = { status: 'completed' | 'failed' | 'incomplete'; event: string };

/** Builds the `response` of one turn, streaming its events when given `emit`. */
export class ResponseBuilder {
  readonly #facts: ResponseFacts;
  readonly #emit: ResponseEmit;
  readonly #items: Item[] = [];
  /** The message item taking text deltas, while one is open. */
  #message: { item: Item; part: TextPart; index: number } | undefined;

  constructor(facts: ResponseFacts, emit?: ResponseEmit) {
    this.#facts = facts;
    this.#emit = emit ?? (() => undefined);
  }

  /** The stream's first two events. */
  start(): void {
    this.#emit('response.created', { response: this.response('in_progress') });
    this.#emit('response.in_progress', { response: this.response('in_progress') });
  }

  /** Takes one agent event of the turn. */
  event(event: AgentEvent): void {
    if (event.type === 'text_delta' && event.delta) this.#text(event.delta);
    else if (event.type === 'tool_call_start') {
      this.#closeMessage();
      this.#add({
        type: 'function_call',
        id: newId('fc_'),
        call_id: event.toolCallId,
        name: event.name,
        arguments: event.arguments,
        status: 'completed',
      });
    } else if (event.type === 'tool_call_end') {
      this.#closeMessage();
      this.#add({
        type: 'function_call_output',
        id: newId('fco_'),
        call_id: event.toolCallId,
        output: event.preview,
        status: event.outcome === 'ok' ? 'completed' : 'incomplete',
      });
    }
  }

  /**
   * Ends the response with the turn's end and returns the final object. A final answer that was
   * not streamed (or notices, when the turn had no answer) becomes the last message.
   */
  finish(end: TurnEnd, notices: readonly string[] = []): Record<string, unknown> {
    this.#closeMessage();
    if (end.kind === 'fail') {
      const response = this.response('failed', {
        error: { code: end.error.code, message: end.error.message },
      });
      this.#emit('response.failed', { response });
      return response;
    }
    const { outcome } = end;
    const text = outcome.text || notices.join('\n\n');
    if (text && this.#items.at(-1)?.type !== 'message') {
      this.#text(text);
      this.#closeMessage();
    }
    const final = finalOf(outcome.failed, outcome.exitReason);
    const response = this.response(final.status, {
      usage: responsesUsage(outcome.usage),
      ...(final.status === 'failed'
        ? { error: { code: 'turn_failed', message: outcome.text } }
        : {}),
      ...(final.status === 'incomplete' ? { incomplete_details: { reason: 'interrupted' } } : {}),
    });
    this.#emit(final.event, { response });
    return response;
  }

  /** The `response` object now, with `status` and any final fields. */
  response(status: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
    const final = status !== 'in_progress';
    return {
      id: this.#facts.id,
      object: 'response',
      created_at: this.#facts.createdAt,
      status,
      background: false,
      completed_at: status === 'completed' ? Math.floor(Date.now() / 1000) : null,
      error: null,
      incomplete_details: null,
      instructions: this.#facts.instructions,
      max_output_tokens: null,
      metadata: {},
      model: this.#facts.model,
      output: final ? structuredClone(this.#items) : [],
      parallel_tool_calls: true,
      previous_response_id: this.#facts.previousResponseId,
      reasoning: { effort: null, summary: null },
      store: this.#facts.store,
      temperature: 1,
      text: { format: { type: 'text' } },
      tool_choice: 'auto',
      tools: [],
      top_p: 1,
      truncation: 'disabled',
      usage: null,
      ...(this.#facts.user ? { user: this.#facts.user } : {}),
      ...extra,
    };
  }

  #text(delta: string): void {
    if (!this.#message) {
      const part: TextPart = { type: 'output_text', text: '', annotations: [], logprobs: [] };
      const item: Item = {
        type: 'message',
        id: newId('msg_'),
        status: 'in_progress',
        role: 'assistant',
        content: [],
      };
      const index = this.#items.push(item) - 1;
      this.#message = { item, part, index };
      this.#emit('response.output_item.added', {
        output_index: index,
        item: structuredClone(item),
      });
      item.content = [part];
      this.#emit('response.content_part.added', {
        item_id: item.id,
        output_index: index,
        content_index: 0,
        part: { ...part, text: '' },
      });
    }
    const { item, part, index } = this.#message;
    part.text += delta;
    this.#emit('response.output_text.delta', {
      item_id: item.id,
      output_index: index,
      content_index: 0,
      delta,
      logprobs: [],
    });
  }

  #closeMessage(): void {
    const open = this.#message;
    if (!open) return;
    this.#message = undefined;
    const { item, part, index } = open;
    const at = { item_id: item.id, output_index: index, content_index: 0 };
    this.#emit('response.output_text.done', { ...at, text: part.text, logprobs: [] });
    this.#emit('response.content_part.done', { ...at, part: { ...part } });
    item.status = 'completed';
    this.#emit('response.output_item.done', { output_index: index, item: structuredClone(item) });
  }

  /** Adds a finished item (a tool call or its output) in one added/done pair. */
  #add(item: Item): void {
    const index = this.#items.push(item) - 1;
    this.#emit('response.output_item.added', { output_index: index, item: structuredClone(item) });
    if (item.type === 'function_call') {
      const at = { item_id: item.id, output_index: index };
      this.#emit('response.function_call_arguments.done', {
        ...at,
        name: item.name,
        arguments: item.arguments,
      });
    }
    this.#emit('response.output_item.done', { output_index: index, item: structuredClone(item) });
  }
}

function finalOf(failed: boolean, exitReason: string): Final {
  if (failed) return { status: 'failed', event: 'response.failed' };
  if (exitReason.startsWith('interrupted')) {
    return { status: 'incomplete', event: 'response.incomplete' };
  }
  return { status: 'completed', event: 'response.completed' };
}
