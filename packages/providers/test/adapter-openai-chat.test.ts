/**
 * The OpenAI Chat Completions adapter over real HTTP to the scripted testkit server: the seam's
 * contract, and streamed and JSON answers (text, reasoning, split tool calls, usage, finish
 * reasons) resolved into one normalized response.
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
const chatProvider = server.startFor('openai-chat');
const sentBody = server.sentBody;

describeContractOverTestkit('openai-chat');

describe('OpenAIChatProvider streaming', () => {
  it('streams text into well-ordered events and one normalized response', async () => {
    const provider = await chatProvider(
      script().text('Hello from the scripted model.').chunking({ textChunkSize: 4 }),
    );
    const { response, events } = await chatCollecting(provider, {
      model: 'gpt-4o',
      messages: hello,
    });
    assertValidChatResponse(response);
    assertValidStreamOrder(events);
    expect(response.message.content).toBe('Hello from the scripted model.');
    expect(collectStreamText(events)).toBe('Hello from the scripted model.');
    expect(events.filter((e) => e.type === 'text_delta').length).toBeGreaterThan(5);
    expect(response).toMatchObject({
      finishReason: 'stop',
      model: 'gpt-4o',
      provider: 'openai-chat',
    });
    expect(response.responseId).toMatch(/^chatcmpl-/);
    expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'stop' });
  });

  it('turns reasoning_content deltas into reasoning events and message.reasoning', async () => {
    const provider = await chatProvider(
      script().reasoning('First, think it through.').text('Answer.').chunking({ textChunkSize: 5 }),
    );
    const { response, events } = await chatCollecting(provider, {
      model: 'deepseek-reasoner',
      messages: hello,
    });
    assertValidStreamOrder(events);
    expect(response.message.reasoning).toBe('First, think it through.');
    expect(response.message.content).toBe('Answer.');
    const reasoning = events.flatMap((e) => (e.type === 'reasoning_delta' ? [e.delta] : []));
    expect(reasoning.join('')).toBe('First, think it through.');
    expect(reasoning.length).toBeGreaterThan(1);
  });

  it('reassembles split, interleaved tool calls into exact tool_calls', async () => {
    const provider = await chatProvider(
      script()
        .toolCall('read_file', { path: '/etc/hosts', lines: [1, 20] }, 'call_read')
        .toolCall('search', '{"query": "café \\"q\\"", "limit": 5}', 'call_search')
        .chunking({ argumentsChunkSize: 3, interleaveToolCalls: true }),
    );
    const { response, events } = await chatCollecting(provider, {
      model: 'gpt-4o',
      messages: hello,
    });
    assertValidStreamOrder(events);
    expect(response.finishReason).toBe('tool_calls');
    expect(response.message.content).toBeNull();
    expect(response.message.tool_calls).toEqual([
      {
        id: 'call_read',
        type: 'function',
        function: { name: 'read_file', arguments: '{"path":"/etc/hosts","lines":[1,20]}' },
      },
      {
        id: 'call_search',
        type: 'function',
        function: { name: 'search', arguments: '{"query": "café \\"q\\"", "limit": 5}' },
      },
    ]);
    const deltaIndices = events.flatMap((e) => (e.type === 'tool_call_delta' ? [e.index] : []));
    expect(deltaIndices.slice(0, 4)).toEqual([0, 1, 0, 1]);
  });

  it('reports usage with cache reads apart from fresh input', async () => {
    const provider = await chatProvider(
      script()
        .text('ok')
        .usage({ inputTokens: 100, cacheReadTokens: 40, outputTokens: 20, reasoningTokens: 5 }),
    );
    const { response, events } = await chatCollecting(provider, {
      model: 'gpt-4o',
      messages: hello,
    });
    const usage = {
      inputTokens: 100,
      outputTokens: 20,
      cacheReadTokens: 40,
      cacheWriteTokens: 0,
      reasoningTokens: 5,
    };
    expect(response.usage).toEqual(usage);
    expect(events.filter((e) => e.type === 'usage').at(-1)).toEqual({ type: 'usage', usage });
  });

  it.each([
    ['length', 'length'],
    ['content_filter', 'content_filter'],
    ['stop', 'stop'],
  ] as const)('maps finish_reason %s to %s', async (wire, normalized) => {
    const provider = await chatProvider(script().text('Cut').finishReason(wire));
    const response = await provider.chat({ model: 'gpt-4o', messages: hello });
    expect(response.finishReason).toBe(normalized);
    expect(response.message.finish_reason).toBe(normalized);
  });
});

describe('OpenAIChatProvider without streaming', () => {
  it('resolves the same normalized response and still emits one delta per block', async () => {
    const provider = await chatProvider(
      script()
        .reasoning('Plan.')
        .text('Result text.')
        .toolCall('run', { cmd: 'ls' }, 'call_1')
        .usage({ inputTokens: 9, cacheReadTokens: 3, outputTokens: 4 }),
    );
    const { response, events } = await chatCollecting(provider, {
      model: 'gpt-4o',
      messages: hello,
      stream: false,
    });
    expect(sentBody().stream).toBe(false);
    expect(sentBody()).not.toHaveProperty('stream_options');
    assertValidStreamOrder(events);
    expect(response.message).toEqual({
      role: 'assistant',
      content: 'Result text.',
      reasoning: 'Plan.',
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'run', arguments: '{"cmd":"ls"}' } },
      ],
      finish_reason: 'tool_calls',
    });
    expect(response.usage).toMatchObject({ inputTokens: 9, cacheReadTokens: 3, outputTokens: 4 });
    expect(events.filter((e) => e.type === 'text_delta')).toEqual([
      { type: 'text_delta', index: 0, delta: 'Result text.' },
    ]);
    expect(events.filter((e) => e.type === 'reasoning_delta')).toHaveLength(1);
  });
});
