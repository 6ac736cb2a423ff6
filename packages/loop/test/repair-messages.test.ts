import type { ChatMessage } from '@hermes/protocol';
import { deepFreeze } from '@hermes/protocol/testing';
import { describe, expect, it } from 'vitest';
import { buildRequestMessages, MISSING_RESULT_TEXT } from '../src/index.js';

const call = (id: string) => ({
  id,
  type: 'function' as const,
  function: { name: 't', arguments: '{}' },
});

describe('buildRequestMessages', () => {
  it('repairs a copy and never mutates the conversation', () => {
    const conversation = deepFreeze<ChatMessage[]>([
      { role: 'tool', tool_call_id: 'orphan', content: 'no call for me' },
      { role: 'user', content: 'one' },
      { role: 'user', content: 'two' },
      { role: 'assistant', content: null, tool_calls: [call('a'), call('b')] },
      { role: 'tool', tool_call_id: 'a', content: 'A' },
      { role: 'tool', tool_call_id: 'a', content: 'duplicate' },
      { role: 'user', content: 'three' },
    ]);
    const out = buildRequestMessages('system text', conversation, (m) =>
      m === conversation[6] ? 'three + recalled memory' : undefined,
    );
    expect(out.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'user']);
    expect(out[1]?.content).toBe('one\n\ntwo');
    expect(out[3]).toMatchObject({ tool_call_id: 'a', content: 'A' });
    expect(out[4]).toMatchObject({ tool_call_id: 'b', content: MISSING_RESULT_TEXT, name: 't' });
    expect(out[5]?.content).toBe('three + recalled memory');
    expect(conversation[6]?.content).toBe('three'); // frozen: any mutation would have thrown
  });

  it('stubs the results of a trailing tool call', () => {
    const out = buildRequestMessages('', [
      { role: 'user', content: 'x' },
      { role: 'assistant', content: null, tool_calls: [call('z')] },
    ]);
    expect(out.at(-1)).toMatchObject({
      role: 'tool',
      tool_call_id: 'z',
      content: MISSING_RESULT_TEXT,
    });
  });
});
