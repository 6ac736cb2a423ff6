/** Hermes conversations as Anthropic turns, and where the cache breakpoints go (pure functions). */
import type { ChatMessage } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { applyPromptCaching } from '../src/adapters/anthropic-cache-control.js';
import {
  anthropicToolId,
  toAnthropicConversation,
  toolInputOf,
} from '../src/adapters/anthropic-messages-input.js';

/** Every `cache_control` marker in `value`, wherever it sits. */
function countMarkers(value: unknown): number {
  return JSON.stringify(value).split('"cache_control"').length - 1;
}

describe('anthropic-messages: conversation conversion', () => {
  it('drops empty and thinking-only assistant turns and merges what becomes adjacent', () => {
    const { system, messages } = toAnthropicConversation([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: '' },
      { role: 'user', content: 'two' },
      {
        role: 'assistant',
        content: null,
        reasoning_details: [{ type: 'thinking', thinking: 'hmm', signature: 's' }],
      },
      { role: 'user', content: [{ type: 'text', text: 'three' }] },
      { role: 'system', content: 'Late system note.' },
      {
        role: 'assistant',
        content: 'Done.',
        reasoning_details: [
          { type: 'thinking', thinking: 'unsigned' },
          { type: 'reasoning.summary', text: 'foreign' },
          { type: 'redacted_thinking', data: 'ENC' },
        ],
      },
    ]);
    expect(system).toEqual([{ type: 'text', text: 'Late system note.' }]);
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
          { type: 'text', text: 'three' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'redacted_thinking', data: 'ENC' },
          { type: 'text', text: 'Done.' },
        ],
      },
    ]);
  });

  it('puts tool results first in a merged user turn', () => {
    const { messages } = toAnthropicConversation([
      { role: 'user', content: 'Run it.' },
      { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: 'out' }] },
    ]);
    expect(messages[0]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'c1', content: [{ type: 'text', text: 'out' }] },
      { type: 'text', text: 'Run it.' },
    ]);
  });

  it('uses up to four message breakpoints when there is no system prompt', () => {
    const conversation = toAnthropicConversation(
      Array.from(
        { length: 9 },
        (_, i): ChatMessage =>
          i % 2 === 0
            ? { role: 'user', content: `u${i}` }
            : { role: 'assistant', content: `a${i}` },
      ),
    );
    expect(applyPromptCaching(conversation, '5m')).toBe(4);
    const marked = conversation.messages.map((m) => countMarkers(m.content));
    expect(marked).toEqual([0, 0, 0, 0, 0, 1, 1, 1, 1]);
  });

  it('cleans tool ids the API would reject and parses tool arguments into an object', () => {
    expect(anthropicToolId('call_AbC-9')).toBe('call_AbC-9');
    expect(anthropicToolId('functions.search:0')).toBe('functions_search_0');
    expect(anthropicToolId('')).toBe('toolu_empty');
    expect(toolInputOf('{"a":[1,{"b":null}]}')).toEqual({ a: [1, { b: null }] });
    expect(toolInputOf('{"a": 1, "b"')).toEqual({});
    expect(toolInputOf('[1, 2]')).toEqual({});
    expect(toolInputOf('"text"')).toEqual({});
    expect(toolInputOf('')).toEqual({});
  });
});
