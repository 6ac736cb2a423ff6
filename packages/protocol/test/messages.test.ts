import { describe, expect, it } from 'vitest';
import {
  type ChatMessage,
  ChatMessageSchema,
  parseOrThrow,
  ToolCallSchema,
  ToolSchemaSchema,
} from '../src/index.js';

describe('ChatMessage', () => {
  it('accepts the four roles with their own fields', () => {
    const conversation: ChatMessage[] = [
      { role: 'system', content: 'You are Hermes.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this picture?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
        ],
      },
      {
        role: 'assistant',
        content: null,
        reasoning: 'The user wants a description.',
        reasoning_details: [{ type: 'thinking', text: 'hmm', signature: 'sig-1' }],
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'vision_analyze', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', name: 'vision_analyze', content: 'a cat' },
      { role: 'assistant', content: 'A cat.', finish_reason: 'stop' },
    ];
    for (const message of conversation) {
      expect(ChatMessageSchema.parse(message)).toEqual(message);
    }
  });

  it('keeps unknown provider fields inside reasoning details for faithful replay', () => {
    const parsed = ChatMessageSchema.parse({
      role: 'assistant',
      content: 'ok',
      reasoning_details: [{ type: 'redacted_thinking', data: 'xyz', provider_extra: 7 }],
    });
    expect(parsed.role === 'assistant' && parsed.reasoning_details?.[0]).toMatchObject({
      provider_extra: 7,
    });
  });

  it('rejects a tool message without tool_call_id and an unknown role', () => {
    expect(ChatMessageSchema.safeParse({ role: 'tool', content: 'x' }).success).toBe(false);
    expect(ChatMessageSchema.safeParse({ role: 'developer', content: 'x' }).success).toBe(false);
  });

  it('rejects an image part with an empty url', () => {
    const result = ChatMessageSchema.safeParse({
      role: 'user',
      content: [{ type: 'image_url', image_url: { url: '' } }],
    });
    expect(result.success).toBe(false);
  });

  it('keeps tool call arguments as the raw string the model wrote', () => {
    const call = ToolCallSchema.parse({
      id: 'c',
      type: 'function',
      function: { name: 'terminal', arguments: '{"command": "ls",' },
    });
    expect(call.function.arguments).toBe('{"command": "ls",');
  });
});

describe('ToolSchema', () => {
  const valid = {
    type: 'function',
    function: {
      name: 'read_file',
      description: 'Read a file',
      parameters: { type: 'object', properties: { path: { type: 'string' } } },
    },
  };

  it('accepts a JSON-Schema function definition', () => {
    expect(ToolSchemaSchema.parse(valid)).toEqual(valid);
  });

  it('names the offending field when a tool name has illegal characters', () => {
    const bad = { ...valid, function: { ...valid.function, name: 'read file!' } };
    expect(() => parseOrThrow(ToolSchemaSchema, bad, 'tool schema')).toThrow(
      /function\.name: tool name must be/,
    );
  });
});
