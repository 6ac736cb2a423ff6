/**
 * Tool-call groups: an assistant message with tool calls and the tool results right after it
 * form one unit. A cut between two messages is only ever made at a group boundary, so a call is
 * never separated from its results (providers reject either half alone).
 */
import type { ChatMessage, ToolCall } from '@hermes/protocol';

/** Moves `index` back until a cut before it does not split a tool-call group. */
export function groupStartAtOrBefore(messages: readonly ChatMessage[], index: number): number {
  let i = Math.min(index, messages.length);
  while (i > 0 && messages[i]?.role === 'tool') i--;
  return i;
}

/** Moves `index` forward until a cut before it does not split a tool-call group. */
export function groupStartAtOrAfter(messages: readonly ChatMessage[], index: number): number {
  let i = Math.max(index, 0);
  while (i < messages.length && messages[i]?.role === 'tool') i++;
  return i;
}

/** Every tool call in `messages`, by id, with the index of the assistant message holding it. */
export function indexToolCalls(messages: readonly ChatMessage[]): Map<string, ToolCall> {
  const calls = new Map<string, ToolCall>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const call of message.tool_calls ?? []) calls.set(call.id, call);
  }
  return calls;
}
