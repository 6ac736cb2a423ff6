/**
 * Resume after a crash: when the last assistant message asked for tools whose results were never
 * saved (the process died mid-tool), those calls are answered as interrupted before the new turn
 * starts, so the conversation is valid and the model knows they may not have run.
 */
import type { ChatMessage, ToolMessage } from '@hermes/protocol';

/** The result recorded for a call the previous process never finished. */
export const RESUMED_RESULT_TEXT =
  '[Interrupted: the agent stopped before this tool finished. It may or may not have taken effect; check before repeating it.]';

/** Tool messages for unanswered calls of the last assistant message (empty when none). */
export function danglingToolResults(messages: readonly ChatMessage[]): ToolMessage[] {
  let index = messages.length - 1;
  const answered = new Set<string>();
  while (index >= 0 && messages[index]?.role === 'tool') {
    answered.add((messages[index] as ToolMessage).tool_call_id);
    index -= 1;
  }
  const last = messages[index];
  if (last?.role !== 'assistant' || !last.tool_calls?.length) return [];
  return last.tool_calls
    .filter((call) => !answered.has(call.id))
    .map((call) => ({
      role: 'tool',
      tool_call_id: call.id,
      name: call.function.name,
      content: RESUMED_RESULT_TEXT,
    }));
}
