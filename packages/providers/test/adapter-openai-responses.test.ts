/**
 * The OpenAI Responses adapter over real HTTP to the scripted testkit server: the seam's
 * contract, and streamed and JSON answers (text, reasoning summaries, function calls, usage, end
 * states) resolved into one normalized response.
 */
import { script } from '@hermes/testkit';
import { describe, expect, it } from 'vitest';
import {
  assertValidChatResponse,
  assertValidStreamOrder,
  collectStreamText,
} from '../src/testing.js';
import {
  chatCollecting,
  describeContractOverTestkit,
  hello,
  useScriptedServer,
} from './support/adapter-openai-harness.js';

const server = useScriptedServer();
const responsesProvider = server.startFor('openai-responses');
const sentBody = server.sentBody;

describeContractOverTestkit('openai-responses');

describe('OpenAIResponsesProvider answers', () => {
  it('streams reasoning summaries, text and split function calls into one normalized response', async () => {
    const provider = await responsesProvider(
      script()
        .reasoning('Look up the file first.')
        .text('Let me check.')
        .toolCall('read_file', { path: '/etc/hosts', lines: [1, 20] }, 'call_read')
        .toolCall('search', '{"query": "café"}', 'call_search')
        .chunking({ textChunkSize: 3, argumentsChunkSize: 4 })
        .usage({ inputTokens: 120, cacheReadTokens: 30, outputTokens: 45, reasoningTokens: 12 }),
    );
    const { response, events } = await chatCollecting(provider, {
      model: 'gpt-5',
      messages: hello,
    });
    assertValidChatResponse(response);
    assertValidStreamOrder(events);
    expect(collectStreamText(events)).toBe('Let me check.');
    expect(response).toMatchObject({
      finishReason: 'tool_calls',
      model: 'gpt-5',
      provider: 'openai-responses',
    });
    expect(response.responseId).toMatch(/^resp_/);
    expect(response.message.content).toBe('Let me check.');
    expect(response.message.reasoning).toBe('Look up the file first.');
    expect(response.message.tool_calls).toEqual([
      {
        id: 'call_read',
        type: 'function',
        function: { name: 'read_file', arguments: '{"path":"/etc/hosts","lines":[1,20]}' },
      },
      {
        id: 'call_search',
        type: 'function',
        function: { name: 'search', arguments: '{"query": "café"}' },
      },
    ]);
    expect(response.message.reasoning_details).toEqual([
      {
        type: 'reasoning',
        id: expect.stringMatching(/^rs_/),
        summary: [{ type: 'summary_text', text: 'Look up the file first.' }],
      },
    ]);
    expect(response.usage).toEqual({
      inputTokens: 120,
      outputTokens: 45,
      cacheReadTokens: 30,
      cacheWriteTokens: 0,
      reasoningTokens: 12,
    });
    expect(events.filter((e) => e.type === 'tool_call_delta').length).toBeGreaterThan(4);
  });

  it('maps an incomplete response cut by the output limit to length', async () => {
    const provider = await responsesProvider(script().text('Truncat').finishReason('length'));
    const response = await provider.chat({ model: 'gpt-5', messages: hello });
    expect(response.finishReason).toBe('length');
    expect(response.message.content).toBe('Truncat');
  });

  it('maps a content-filtered response to content_filter', async () => {
    const provider = await responsesProvider(script().text('Nope').finishReason('content_filter'));
    const response = await provider.chat({ model: 'gpt-5', messages: hello, stream: false });
    expect(response.finishReason).toBe('content_filter');
  });

  it('without streaming, resolves the same response and emits one delta per block', async () => {
    const provider = await responsesProvider(
      script()
        .reasoning('Plan.')
        .text('Result text.')
        .toolCall('run', { cmd: 'ls' }, 'call_1')
        .usage({ inputTokens: 9, cacheReadTokens: 3, outputTokens: 4 }),
    );
    const { response, events } = await chatCollecting(provider, {
      model: 'gpt-5',
      messages: hello,
      stream: false,
    });
    expect(sentBody().stream).toBe(false);
    assertValidStreamOrder(events);
    expect(response.message).toMatchObject({
      content: 'Result text.',
      reasoning: 'Plan.',
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'run', arguments: '{"cmd":"ls"}' } },
      ],
    });
    expect(response.usage).toMatchObject({ inputTokens: 9, cacheReadTokens: 3, outputTokens: 4 });
    expect(events.filter((e) => e.type === 'text_delta')).toEqual([
      { type: 'text_delta', index: 0, delta: 'Result text.' },
    ]);
  });
});
