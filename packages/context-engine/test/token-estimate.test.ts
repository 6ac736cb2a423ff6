import type { ChatMessage, ToolSchema } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import {
  estimateMessageTokens,
  estimateTokens,
  estimateToolSchemaTokens,
  IMAGE_TOKENS,
  MESSAGE_OVERHEAD_TOKENS,
} from '../src/index.js';
import { toolExchange } from './support/conversations.js';

describe('rough token estimate', () => {
  it('is characters / 4 plus a per-message overhead', () => {
    const message: ChatMessage = { role: 'user', content: 'x'.repeat(400) };
    expect(estimateMessageTokens(message)).toBe(100 + MESSAGE_OVERHEAD_TOKENS);
    expect(estimateTokens([message, message])).toBe(200 + 2 * MESSAGE_OVERHEAD_TOKENS);
  });

  it('counts tool-call arguments, text parts and a fixed cost per image', () => {
    const [call] = toolExchange('c1', 'terminal', { command: 'a'.repeat(100) }, '');
    expect(estimateMessageTokens(call as ChatMessage)).toBeGreaterThan(25);
    const image: ChatMessage = {
      role: 'user',
      content: [
        { type: 'text', text: 'y'.repeat(40) },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${'A'.repeat(100_000)}` } },
      ],
    };
    expect(estimateMessageTokens(image)).toBe(10 + MESSAGE_OVERHEAD_TOKENS + IMAGE_TOKENS);
  });

  it('adds the size of the tool schemas', () => {
    const tools: ToolSchema[] = [
      {
        type: 'function',
        function: {
          name: 'terminal',
          description: 'Run a command',
          parameters: { type: 'object' },
        },
      },
    ];
    const schemaTokens = estimateToolSchemaTokens(tools);
    expect(schemaTokens).toBe(Math.ceil(JSON.stringify(tools).length / 4));
    const messages: ChatMessage[] = [{ role: 'user', content: 'hi' }];
    expect(estimateTokens(messages, tools)).toBe(estimateTokens(messages) + schemaTokens);
  });
});
