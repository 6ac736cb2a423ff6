/**
 * Reusable checks of message lists an engine returns. They throw a `ContractViolation` naming the
 * first problem, so they work inside and outside a test runner.
 */
import { isDeepStrictEqual } from 'node:util';
import { type ChatMessage, ChatMessageSchema } from '@hermes/protocol';
import { contractViolation } from '@hermes/protocol/testing';
import { z } from 'zod';

/** Asserts `value` is a list of valid chat messages and returns it typed. */
export function assertChatMessages(value: unknown, what: string): ChatMessage[] {
  const parsed = z.array(ChatMessageSchema).safeParse(value);
  if (!parsed.success) contractViolation(`${what} is not a ChatMessage[]: ${parsed.error.message}`);
  return parsed.data;
}

/** Asserts `result` begins with the system message that began `original` (when it had one). */
export function assertStartsWithSystem(
  original: readonly ChatMessage[],
  result: readonly ChatMessage[],
): void {
  const system = original[0];
  if (system?.role !== 'system') return;
  if (result[0]?.role !== 'system')
    contractViolation('the result must begin with the original system message');
  if (!isDeepStrictEqual(result[0], system))
    contractViolation('the system message must be kept unchanged');
}

/**
 * Asserts every assistant tool call is answered by tool messages right after it (each id once,
 * none missing) and that no tool message stands without its call.
 */
export function assertToolPairsIntact(messages: readonly ChatMessage[]): void {
  let pending = new Set<string>();
  messages.forEach((message, i) => {
    if (message.role === 'tool') {
      if (!pending.delete(message.tool_call_id)) {
        contractViolation(
          `message ${i}: tool result ${message.tool_call_id} has no open tool call before it`,
        );
      }
      return;
    }
    if (pending.size > 0)
      contractViolation(`message ${i}: tool calls ${[...pending].join(', ')} lost their results`);
    pending = new Set(
      message.role === 'assistant' ? (message.tool_calls ?? []).map((c) => c.id) : [],
    );
  });
  if (pending.size > 0)
    contractViolation(`tool calls ${[...pending].join(', ')} at the end lost their results`);
}

/** Asserts the last user message of `original` appears, unchanged, in `result`. */
export function assertKeepsLastUserMessage(
  original: readonly ChatMessage[],
  result: readonly ChatMessage[],
): void {
  const last = original.findLast((m) => m.role === 'user');
  if (!last) return;
  const wanted = JSON.stringify(last);
  if (!result.some((m) => JSON.stringify(m) === wanted))
    contractViolation('the latest user message was dropped');
}
