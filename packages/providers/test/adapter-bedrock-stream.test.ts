/**
 * The Bedrock Converse adapter over real HTTP: streamed text, reasoning with its signature, tool
 * calls (a full round trip: the call, then its result sent back), usage with cache counters,
 * stop reasons, and the non-streamed `Converse` path producing the same response.
 */
import type { ChatMessage, ToolSchema } from '@hermes/protocol';
import { script } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamEvent } from '../src/stream-event.js';
import {
  askBedrock,
  closeBedrockRigs,
  converseRequests,
  MODEL,
  sentInput,
  startBedrockRig,
} from './support/bedrock-rig.js';

afterEach(closeBedrockRigs);

const weatherTool: ToolSchema = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'The weather in a city.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

describe('bedrock-converse: streaming', () => {
  it('streams text in the scripted chunks and returns it with usage and the stop reason', async () => {
    const { provider, server } = await startBedrockRig(
      script()
        .text('Hello from Bedrock, streamed.')
        .chunking({ textChunkSize: 5 })
        .usage({ inputTokens: 120, outputTokens: 9, cacheReadTokens: 30, cacheWriteTokens: 4 }),
    );
    const events: StreamEvent[] = [];
    const response = await provider.chat(askBedrock(true), { onEvent: (e) => events.push(e) });
    const deltas = events.flatMap((e) => (e.type === 'text_delta' ? [e.delta] : []));
    expect(deltas).toEqual(['Hello', ' from', ' Bedr', 'ock, ', 'strea', 'med.']);
    expect(response).toMatchObject({
      message: { role: 'assistant', content: 'Hello from Bedrock, streamed.' },
      finishReason: 'stop',
      usage: { inputTokens: 120, outputTokens: 9, cacheReadTokens: 30, cacheWriteTokens: 4 },
      model: MODEL,
      provider: 'bedrock-converse',
    });
    expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'stop' });
    // The model id travels URL-encoded in the path; streaming picks the operation.
    const [request] = converseRequests(server);
    expect(request?.path).toBe(`/model/${encodeURIComponent(MODEL)}/converse-stream`);
    expect(request?.model).toBe(MODEL);
    expect(request?.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDTEST\//);
  });

  it('keeps signed reasoning apart from the text, for replay', async () => {
    const { provider } = await startBedrockRig(
      script().reasoning('Think about it.', 'c2lnbmF0dXJl').text('Answer.').chunking({
        textChunkSize: 4,
      }),
    );
    const events: StreamEvent[] = [];
    const response = await provider.chat(askBedrock(true), { onEvent: (e) => events.push(e) });
    expect(response.message.reasoning).toBe('Think about it.');
    expect(response.message.content).toBe('Answer.');
    expect(response.message.reasoning_details).toEqual([
      { type: 'thinking', thinking: 'Think about it.', signature: 'c2lnbmF0dXJl' },
    ]);
    const kinds = events.map((e) => e.type).filter((t) => t.endsWith('_start'));
    expect(kinds).toEqual(['reasoning_start', 'text_start']);
  });

  it.each([
    ['length', 'length'],
    ['content_filter', 'content_filter'],
  ] as const)('maps the stop reason for a scripted %s', async (scripted, expected) => {
    const { provider } = await startBedrockRig(script().text('cut').finishReason(scripted));
    expect((await provider.chat(askBedrock(true))).finishReason).toBe(expected);
  });
});

describe('bedrock-converse: a tool-call round trip', () => {
  const question: ChatMessage[] = [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: 'Weather in Zürich?' },
  ];

  it('streams a tool call, then sends its result back as a toolResult in a user turn', async () => {
    const { provider, server } = await startBedrockRig(
      script()
        .text('Let me check.')
        .toolCall('get_weather', { city: 'Zürich' }, 'tooluse_abc123')
        .chunking({ argumentsChunkSize: 4 })
        .next()
        .text('It is sunny in Zürich.'),
    );
    const first = await provider.chat({
      model: MODEL,
      messages: question,
      tools: [weatherTool],
      toolChoice: 'auto',
      maxOutputTokens: 512,
      temperature: 0.2,
      stream: true,
    });
    expect(first.finishReason).toBe('tool_calls');
    expect(first.message.tool_calls).toEqual([
      {
        id: 'tooluse_abc123',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Zürich"}' },
      },
    ]);
    expect(sentInput(server, 0)).toMatchObject({
      system: [{ text: 'You are terse.' }],
      messages: [{ role: 'user', content: [{ text: 'Weather in Zürich?' }] }],
      inferenceConfig: { maxTokens: 512, temperature: 0.2 },
      toolConfig: {
        tools: [
          {
            toolSpec: {
              name: 'get_weather',
              description: 'The weather in a city.',
              inputSchema: { json: weatherTool.function.parameters },
            },
          },
        ],
        toolChoice: { auto: {} },
      },
    });

    const second = await provider.chat({
      model: MODEL,
      messages: [
        ...question,
        first.message,
        { role: 'tool', tool_call_id: 'tooluse_abc123', content: '{"sky":"sunny"}' },
      ],
      tools: [weatherTool],
      stream: true,
    });
    expect(second.message.content).toBe('It is sunny in Zürich.');
    expect(sentInput(server, 1).messages).toEqual([
      { role: 'user', content: [{ text: 'Weather in Zürich?' }] },
      {
        role: 'assistant',
        content: [
          { text: 'Let me check.' },
          {
            toolUse: {
              toolUseId: 'tooluse_abc123',
              name: 'get_weather',
              input: { city: 'Zürich' },
            },
          },
        ],
      },
      {
        role: 'user',
        content: [
          { toolResult: { toolUseId: 'tooluse_abc123', content: [{ text: '{"sky":"sunny"}' }] } },
        ],
      },
    ]);
  });

  it('reads the same tool call from a non-streamed Converse answer', async () => {
    const { provider, server } = await startBedrockRig(
      script()
        .reasoning('Need the tool.', 'c2ln')
        .toolCall('get_weather', { city: 'Bern' }, 'tooluse_x')
        .usage({ inputTokens: 50, outputTokens: 12 }),
    );
    const events: StreamEvent[] = [];
    const response = await provider.chat(
      { model: MODEL, messages: question, tools: [weatherTool], stream: false },
      { onEvent: (e) => events.push(e) },
    );
    expect(converseRequests(server)[0]?.path).toBe(`/model/${encodeURIComponent(MODEL)}/converse`);
    expect(response).toMatchObject({
      finishReason: 'tool_calls',
      message: {
        content: null,
        reasoning: 'Need the tool.',
        reasoning_details: [{ type: 'thinking', thinking: 'Need the tool.', signature: 'c2ln' }],
        tool_calls: [
          { id: 'tooluse_x', function: { name: 'get_weather', arguments: '{"city":"Bern"}' } },
        ],
      },
      usage: { inputTokens: 50, outputTokens: 12 },
    });
    expect(events.map((e) => e.type)).toContain('tool_call_start');
    expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'tool_calls' });
  });

  it('replays signed reasoning and merges consecutive tool results into one user turn', async () => {
    const { provider, server } = await startBedrockRig(script().text('Both done.'));
    await provider.chat({
      model: MODEL,
      messages: [
        { role: 'user', content: 'Two things.' },
        {
          role: 'assistant',
          content: null,
          reasoning_details: [{ type: 'thinking', thinking: 'Plan.', signature: 'c2ln' }],
          tool_calls: [
            { id: 'call.1', type: 'function', function: { name: 'a', arguments: '{}' } },
            { id: 'call.2', type: 'function', function: { name: 'b', arguments: 'not json' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call.1', content: 'one' },
        { role: 'tool', tool_call_id: 'call.2', content: '' },
        { role: 'user', content: 'Thanks.' },
      ],
      stream: true,
    });
    expect(sentInput(server).messages).toEqual([
      { role: 'user', content: [{ text: 'Two things.' }] },
      {
        role: 'assistant',
        content: [
          { reasoningContent: { reasoningText: { text: 'Plan.', signature: 'c2ln' } } },
          { toolUse: { toolUseId: 'call_1', name: 'a', input: {} } },
          { toolUse: { toolUseId: 'call_2', name: 'b', input: {} } },
        ],
      },
      {
        role: 'user',
        content: [
          { toolResult: { toolUseId: 'call_1', content: [{ text: 'one' }] } },
          { toolResult: { toolUseId: 'call_2', content: [{ text: '(no output)' }] } },
          { text: 'Thanks.' },
        ],
      },
    ]);
  });
});
