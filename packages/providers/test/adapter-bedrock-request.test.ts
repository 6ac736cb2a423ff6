/**
 * The Converse input the Bedrock adapter builds from a `ChatRequest`: system blocks, alternating
 * turns, images, tool results, tools and tool choice, inference settings and Claude's thinking
 * budget. Pure mapping, no network; the round trips over HTTP are in adapter-bedrock-stream.
 */
import type { ChatMessage, ToolSchema } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { toBedrockConversation } from '../src/adapters/bedrock-messages.js';
import { bedrockToolChoice, buildBedrockRequest } from '../src/adapters/bedrock-request.js';
import type { ChatRequest } from '../src/chat-request.js';

const tool: ToolSchema = {
  type: 'function',
  function: { name: 'read_file', description: '', parameters: { type: 'object', properties: {} } },
};

const ask = (extra: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'anthropic.claude-sonnet-4-5-20250929-v1:0',
  messages: [{ role: 'user', content: 'Hi' }],
  ...extra,
});

describe('bedrock-converse request mapping', () => {
  it('gathers system messages into system blocks and merges same-role turns', () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'One.' },
      { role: 'system', content: 'Also be kind.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Two.' },
          { type: 'text', text: '' },
        ],
      },
      { role: 'assistant', content: '' },
      { role: 'assistant', content: 'Answer.' },
    ];
    const conversation = toBedrockConversation(messages);
    expect(conversation.system).toEqual([{ text: 'Be brief.' }, { text: 'Also be kind.' }]);
    expect(conversation.messages).toEqual([
      { role: 'user', content: [{ text: 'One.' }, { text: 'Two.' }] },
      { role: 'assistant', content: [{ text: 'Answer.' }] },
    ]);
  });

  it('sends inline images as bytes and notes the ones Converse cannot take', () => {
    const png = Buffer.from('fake png bytes').toString('base64');
    const [turn] = toBedrockConversation([
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
          { type: 'image_url', image_url: { url: 'data:image/tiff;base64,AAAA' } },
        ],
      },
    ]).messages;
    const [image, remote, tiff] = turn?.content ?? [];
    expect(image?.image?.format).toBe('png');
    expect(Buffer.from(image?.image?.source?.bytes ?? []).toString()).toBe('fake png bytes');
    expect(remote?.text).toMatch(/image omitted/);
    expect(tiff?.text).toMatch(/image\/tiff/);
  });

  it('never mutates the request', () => {
    const request = ask({
      messages: [
        { role: 'user', content: 'Hi' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c 1', type: 'function', function: { name: 'x', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'c 1', content: 'done' },
      ],
      tools: [tool],
    });
    const before = structuredClone(request);
    buildBedrockRequest(request);
    expect(request).toEqual(before);
  });

  it('maps tool choice: auto, any, a named tool; none leaves the model free', () => {
    expect(bedrockToolChoice('auto')).toEqual({ auto: {} });
    expect(bedrockToolChoice('required')).toEqual({ any: {} });
    expect(bedrockToolChoice({ type: 'function', name: 'read_file' })).toEqual({
      tool: { name: 'read_file' },
    });
    expect(bedrockToolChoice('none')).toBeUndefined();
    const input = buildBedrockRequest(ask({ tools: [tool], toolChoice: 'none' }));
    expect(input.toolConfig).toEqual({
      tools: [{ toolSpec: { name: 'read_file', inputSchema: { json: tool.function.parameters } } }],
    });
  });

  it('sends no inferenceConfig when the request sets nothing, and no toolConfig without tools', () => {
    const input = buildBedrockRequest(ask({ tools: [] }));
    expect(input).toEqual({
      modelId: 'anthropic.claude-sonnet-4-5-20250929-v1:0',
      messages: [{ role: 'user', content: [{ text: 'Hi' }] }],
    });
  });

  it("turns reasoning effort into Claude's thinking budget, dropping temperature", () => {
    const input = buildBedrockRequest(
      ask({
        model: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
        reasoning: { effort: 'low' },
        maxOutputTokens: 16_000,
        temperature: 0.5,
      }),
    );
    expect(input.additionalModelRequestFields).toEqual({
      thinking: { type: 'enabled', budget_tokens: 4_000 },
    });
    expect(input.inferenceConfig).toEqual({ maxTokens: 16_000 });
  });

  it('asks no thinking of other model families, nor with a forced tool call', () => {
    const nova = buildBedrockRequest(
      ask({ model: 'amazon.nova-pro-v1:0', reasoning: { effort: 'high' }, temperature: 0.3 }),
    );
    expect(nova.additionalModelRequestFields).toBeUndefined();
    expect(nova.inferenceConfig).toEqual({ temperature: 0.3 });
    const forced = buildBedrockRequest(
      ask({ reasoning: { effort: 'high' }, tools: [tool], toolChoice: 'required' }),
    );
    expect(forced.additionalModelRequestFields).toBeUndefined();
  });
});
