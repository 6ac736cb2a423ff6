/**
 * Checks of provider output that any test can reuse. They throw a `ContractViolation` naming the
 * first problem, so they work inside and outside a test runner.
 */
import type { AssistantMessage } from '@hermes/protocol';
import { contractViolation } from '@hermes/protocol/testing';
import { type ChatResponse, ChatResponseSchema } from '../chat-response.js';
import { type StreamBlockKind, type StreamEvent, StreamEventSchema } from '../stream-event.js';

interface BlockState {
  readonly kind: StreamBlockKind;
  readonly deltas: string[];
  closed: boolean;
  toolCallId?: string;
  toolName?: string;
}

type Phase = 'start' | 'delta' | 'end';

function phaseOf(
  event: StreamEvent,
): { kind: StreamBlockKind; phase: Phase; index: number } | null {
  if (event.type === 'usage' || event.type === 'done') return null;
  const cut = event.type.lastIndexOf('_');
  const kind = event.type.slice(0, cut) as StreamBlockKind;
  const phase = event.type.slice(cut + 1) as Phase;
  return { kind, phase, index: event.index };
}

function deltaOf(event: StreamEvent): string {
  if (event.type === 'tool_call_delta') return event.argumentsDelta;
  if (event.type === 'text_delta' || event.type === 'reasoning_delta') return event.delta;
  return '';
}

function checkEnd(event: StreamEvent, block: BlockState, where: string): void {
  const joined = block.deltas.join('');
  if (event.type === 'tool_call_end') {
    const call = event.toolCall;
    if (call.id !== block.toolCallId || call.function.name !== block.toolName) {
      contractViolation(`${where}: tool_call_end id/name differ from its tool_call_start`);
    }
    if (call.function.arguments !== joined) {
      contractViolation(`${where}: tool_call_end arguments differ from the joined deltas`);
    }
  } else if (
    (event.type === 'text_end' || event.type === 'reasoning_end') &&
    event.text !== joined
  ) {
    contractViolation(`${where}: ${event.type} text differs from the joined deltas`);
  }
}

function applyBlockEvent(blocks: Map<string, BlockState>, event: StreamEvent, where: string): void {
  const info = phaseOf(event);
  if (!info) return;
  const key = `${info.kind}#${info.index}`;
  const block = blocks.get(key);
  if (info.phase === 'start') {
    if (block) contractViolation(`${where}: ${key} started twice`);
    const fresh: BlockState = { kind: info.kind, deltas: [], closed: false };
    if (event.type === 'tool_call_start') {
      fresh.toolCallId = event.id;
      fresh.toolName = event.name;
    }
    blocks.set(key, fresh);
    return;
  }
  if (!block) contractViolation(`${where}: ${event.type} for ${key} before its start`);
  if (block.closed) contractViolation(`${where}: ${event.type} for ${key} after its end`);
  if (info.phase === 'delta') {
    block.deltas.push(deltaOf(event));
    return;
  }
  checkEnd(event, block, where);
  block.closed = true;
}

/**
 * Asserts that `events` is a complete, well-ordered stream of a successful call: every event
 * parses as a {@link StreamEvent}; each block starts once, receives deltas and ends in that
 * order; each `*_end` equals its joined deltas; every block is closed; `done` is last and unique.
 */
export function assertValidStreamOrder(
  events: readonly unknown[],
): asserts events is StreamEvent[] {
  const blocks = new Map<string, BlockState>();
  events.forEach((raw, position) => {
    const where = `stream event #${position}`;
    const parsed = StreamEventSchema.safeParse(raw);
    if (!parsed.success)
      contractViolation(`${where} is not a valid StreamEvent: ${parsed.error.message}`);
    const event = parsed.data;
    if (event.type === 'done' && position !== events.length - 1) {
      contractViolation(`${where}: done is not the last event`);
    }
    applyBlockEvent(blocks, event, where);
  });
  const last = events.at(-1);
  if (!last || (last as { type?: unknown }).type !== 'done') {
    contractViolation('stream: the last event is not done');
  }
  for (const [key, block] of blocks) {
    if (!block.closed) contractViolation(`stream: ${key} was never closed`);
  }
}

/** The visible text of a stream: every `text_delta`, joined in arrival order. */
export function collectStreamText(events: readonly StreamEvent[]): string {
  return events.map((e) => (e.type === 'text_delta' ? e.delta : '')).join('');
}

/** The visible text of an assistant message: the string, or its text parts joined; `''` for null. */
export function assistantText(message: AssistantMessage): string {
  const content = message.content;
  if (content === null) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** Asserts that `value` parses as a {@link ChatResponse}, and returns the parsed value. */
export function assertValidChatResponse(value: unknown): ChatResponse {
  const parsed = ChatResponseSchema.safeParse(value);
  if (!parsed.success) contractViolation(`not a valid ChatResponse: ${parsed.error.message}`);
  return parsed.data;
}
