/** Conversations the context-engine checks feed to engines. Each call returns fresh objects. */
import type { ChatMessage } from '@hermes/protocol';

/**
 * A system prompt followed by `turns` exchanges, each: a user request, an assistant tool call,
 * its result (a long output), and the assistant's answer. Ends with a final user message.
 */
export function longConversation(turns = 12): ChatMessage[] {
  const messages: ChatMessage[] = [
    { role: 'system', content: 'You are the contract-suite agent.' },
  ];
  for (let t = 0; t < turns; t++) {
    const id = `call_${t}`;
    messages.push(
      { role: 'user', content: `Step ${t}: run the tests in package ${t}.` },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id,
            type: 'function',
            function: { name: 'terminal', arguments: `{"command":"npm test -w p${t}"}` },
          },
        ],
      },
      { role: 'tool', tool_call_id: id, name: 'terminal', content: `ok ${t}\n`.repeat(200) },
      { role: 'assistant', content: `Package ${t} passes.` },
    );
  }
  messages.push({ role: 'user', content: 'Now summarize what passed.' });
  return messages;
}

/** A system prompt and one user message: nothing worth compressing. */
export function shortConversation(): ChatMessage[] {
  return [
    { role: 'system', content: 'You are the contract-suite agent.' },
    { role: 'user', content: 'Hello.' },
  ];
}

/** A rough token count (characters / 4), for the figures checks pass to engines. */
export function roughTokens(messages: readonly ChatMessage[]): number {
  return Math.ceil(JSON.stringify(messages).length / 4);
}
