/**
 * Reassembles streamed tool calls from the fragments the wire formats deliver: an id, a name and
 * argument pieces per call, several calls interleaved, keyed by the adapter's own identifier
 * (Chat Completions' `index`, Anthropic's content-block index, a Responses item id).
 *
 * OpenAI-compatible servers differ in what they send when, so the assembler accepts the parts in
 * any order: arguments before the id or name, a name in pieces, the full name repeated in every
 * chunk, the same wire index reused for a second call with a new id.
 */
import { randomUUID } from 'node:crypto';
import type { ToolCall } from '@hermes/protocol';
import { type EmitStreamEvent, joinChunks } from './block-series.js';

/** How an adapter names one tool call on its wire. */
export type ToolCallKey = number | string;

/** The identifying parts of a tool call, as far as one wire chunk carries them. */
export interface ToolCallHeader {
  /** The call's id; absent, `null` or `''` when this chunk does not carry it. */
  readonly id?: string | null | undefined;
  /** The function name, or a piece of it; absent, `null` or `''` when not in this chunk. */
  readonly name?: string | null | undefined;
}

interface CallState {
  /** Position in the final `tool_calls` (first-seen order). */
  readonly index: number;
  id: string;
  name: string;
  /** Argument fragments; collapsed to one chunk when the call starts. */
  readonly args: string[];
  started: boolean;
  toolCall: ToolCall | undefined;
}

/** Creates an id for a call whose server never sent one. */
export function defaultToolCallId(): string {
  return `call_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
}

/**
 * Assigns each call its index in first-seen order and emits `tool_call_start` once the id and
 * name are known and the name can no longer grow (the first argument fragment arrived, or the
 * call is done), then one `tool_call_delta` per fragment (fragments that arrived earlier go out
 * joined in one delta), then `tool_call_end` from {@link done} or {@link finishAll}. Starts can
 * therefore come out of index order when an earlier call's id arrives late.
 */
export class ToolCallAssembler {
  private readonly emit: EmitStreamEvent;
  private readonly newId: () => string;
  private readonly calls: CallState[] = [];
  private readonly byKey = new Map<ToolCallKey, CallState>();

  constructor(emit: EmitStreamEvent, newId: () => string = defaultToolCallId) {
    this.emit = emit;
    this.newId = newId;
  }

  /** The number of calls seen so far. */
  get count(): number {
    return this.calls.length;
  }

  /**
   * Records the id and/or name of the call `key`, creating the call on first sight. A different
   * id on a key whose call already has one means the server reused the key for a new call: the
   * old call is done. Name pieces are appended until the call starts (a repeat of the whole name
   * is ignored); after that the name is fixed.
   */
  header(key: ToolCallKey, header: ToolCallHeader): void {
    const id = header.id ?? '';
    let call = this.byKey.get(key);
    if (call !== undefined && id !== '' && call.id !== '' && id !== call.id) {
      this.finish(call);
      call = undefined;
    }
    call ??= this.create(key);
    if (call.toolCall !== undefined) return;
    if (call.id === '') call.id = id;
    const name = header.name ?? '';
    if (!call.started && name !== '' && name !== call.name) call.name += name;
    if (call.args.length > 0) this.start(call);
  }

  /** Appends a fragment of the raw JSON arguments of call `key`. Ignored once the call is done. */
  argumentsDelta(key: ToolCallKey, fragment: string): void {
    const call = this.byKey.get(key) ?? this.create(key);
    if (call.toolCall !== undefined || fragment.length === 0) return;
    call.args.push(fragment);
    if (call.started) {
      this.emit({ type: 'tool_call_delta', index: call.index, argumentsDelta: fragment });
    } else {
      this.start(call);
    }
  }

  /** Closes call `key` (an id is generated if none ever came). Unknown or done keys: no-op. */
  done(key: ToolCallKey): void {
    const call = this.byKey.get(key);
    if (call !== undefined) this.finish(call);
  }

  /** Closes every open call, in index order. */
  finishAll(): void {
    for (const call of this.calls) this.finish(call);
  }

  /** The completed calls in index order; call after {@link finishAll}. */
  toolCalls(): ToolCall[] {
    return this.calls.flatMap((call) => (call.toolCall === undefined ? [] : [call.toolCall]));
  }

  private create(key: ToolCallKey): CallState {
    const call: CallState = {
      index: this.calls.length,
      id: '',
      name: '',
      args: [],
      started: false,
      toolCall: undefined,
    };
    this.calls.push(call);
    this.byKey.set(key, call);
    return call;
  }

  /** Emits the start (and the arguments buffered so far) once id and name are known. */
  private start(call: CallState, force = false): void {
    if (call.started || (!force && (call.id === '' || call.name === ''))) return;
    if (call.id === '') call.id = this.newId();
    call.started = true;
    this.emit({ type: 'tool_call_start', index: call.index, id: call.id, name: call.name });
    if (call.args.length === 0) return;
    const buffered = joinChunks(call.args);
    call.args.length = 0;
    call.args.push(buffered);
    this.emit({ type: 'tool_call_delta', index: call.index, argumentsDelta: buffered });
  }

  private finish(call: CallState): void {
    if (call.toolCall !== undefined) return;
    this.start(call, true);
    const toolCall: ToolCall = {
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: joinChunks(call.args) },
    };
    call.toolCall = toolCall;
    call.args.length = 0;
    this.emit({ type: 'tool_call_end', index: call.index, toolCall });
  }
}
