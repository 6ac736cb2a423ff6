/**
 * The Gemini adapter reading answers over real HTTP from the scripted server: streamed text,
 * thoughts as reasoning, whole function calls with generated ids, a tool-call round trip whose
 * second request carries the call and its result, usage, finish reasons (a safety block is
 * `content_filter`), the non-streamed path, and what goes on the wire (key in a header, the
 * `?alt=sse` operation).
 */
import { script } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { THOUGHT_SIGNATURE_DETAIL } from '../src/adapters/gemini-contents.js';
import type { GeminiProvider } from '../src/adapters/gemini-provider.js';
import type { ChatRequest } from '../src/chat-request.js';
import type { StreamEvent } from '../src/stream-event.js';
import {
  ask,
  closeRigs,
  MODEL,
  modelRequests,
  SECRET_KEY,
  sentBody,
  startRig,
} from './support/gemini-rig.js';

afterEach(closeRigs);

async function chatWithEvents(provider: GeminiProvider, request: ChatRequest) {
  const events: StreamEvent[] = [];
  const response = await provider.chat(request, { onEvent: (event) => events.push(event) });
  return { response, events };
}

const weatherTool = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'The weather in a city.',
    parameters: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      additionalProperties: false,
      properties: {
        city: { type: 'string' },
        unit: { type: ['string', 'null'], enum: ['c', 'f'] },
      },
      required: ['city'],
    },
  },
};

describe('gemini: reading answers', () => {
  it('streams text in order, sends the key in a header and asks for SSE', async () => {
    const { provider, server } = await startRig(
      script().text('Hello from Gemini, in pieces.').model('gemini-2.5-flash-001'),
      { providerName: 'google' },
    );
    const { response, events } = await chatWithEvents(provider, ask(true));
    expect(response.message).toEqual({
      role: 'assistant',
      content: 'Hello from Gemini, in pieces.',
      finish_reason: 'stop',
    });
    expect(response.model).toBe('gemini-2.5-flash-001');
    expect(response.provider).toBe('google');
    expect(response.responseId).toMatch(/^[0-9a-f]+$/);
    expect(events.filter((e) => e.type === 'text_delta').length).toBeGreaterThan(1);
    expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'stop' });
    const [request] = modelRequests(server);
    expect(request?.path).toBe(`/v1beta/models/${MODEL}:streamGenerateContent`);
    expect(request?.headers['x-goog-api-key']).toBe(SECRET_KEY);
    expect(JSON.stringify(server.requests.map((r) => r.path))).not.toContain(SECRET_KEY);
  });

  it('keeps thoughts as reasoning before the answer', async () => {
    const { provider } = await startRig(
      script().reasoning('The user greets me. 🌦').text('Hi!').chunking({ textChunkSize: 4 }),
    );
    const { response, events } = await chatWithEvents(provider, ask(true));
    expect(response.message.reasoning).toBe('The user greets me. 🌦');
    expect(response.message.content).toBe('Hi!');
    const kinds = events.map((e) => e.type);
    expect(kinds.indexOf('reasoning_end')).toBeLessThan(kinds.indexOf('text_start'));
  });

  it('reads whole function calls with generated ids; STOP with calls is tool_calls', async () => {
    const { provider } = await startRig(
      script()
        .toolCall('get_weather', { city: 'Zürich', unit: 'c' })
        .toolCall('search', { query: 'café "quoted"', filters: { year: [2023, 2024] } }),
    );
    const { response, events } = await chatWithEvents(provider, ask(true));
    expect(response.finishReason).toBe('tool_calls');
    const calls = response.message.tool_calls ?? [];
    expect(calls.map((c) => c.function.name)).toEqual(['get_weather', 'search']);
    expect(JSON.parse(calls[0]?.function.arguments ?? '')).toEqual({ city: 'Zürich', unit: 'c' });
    expect(JSON.parse(calls[1]?.function.arguments ?? '')).toEqual({
      query: 'café "quoted"',
      filters: { year: [2023, 2024] },
    });
    expect(new Set(calls.map((c) => c.id)).size).toBe(2);
    expect(calls.every((c) => /^call_/.test(c.id))).toBe(true);
    expect(events.filter((e) => e.type === 'tool_call_end')).toHaveLength(2);
  });

  it('round-trips a tool call: the second request carries the call, its signature and its result', async () => {
    const { provider, server } = await startRig(
      script()
        .reasoning('Look it up.', 'c2lnbmF0dXJl')
        .toolCall('get_weather', { city: 'Paris' })
        .next()
        .text('It is 21 °C in Paris.'),
    );
    const first = await provider.chat({ ...ask(true, 'Weather in Paris?'), tools: [weatherTool] });
    const call = first.message.tool_calls?.[0];
    expect(call?.function.name).toBe('get_weather');
    expect(first.message.reasoning_details).toEqual([
      { type: THOUGHT_SIGNATURE_DETAIL, signature: 'c2lnbmF0dXJl', id: call?.id },
    ]);
    const second = await provider.chat({
      model: MODEL,
      stream: true,
      tools: [weatherTool],
      toolChoice: 'auto',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Paris?' },
        first.message,
        { role: 'tool', tool_call_id: call?.id ?? '', content: '{"celsius": 21}' },
      ],
    });
    expect(second.message.content).toBe('It is 21 °C in Paris.');
    const body = sentBody(server, 1);
    expect(body.systemInstruction).toEqual({ parts: [{ text: 'Be brief.' }] });
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
      {
        role: 'model',
        parts: [
          {
            functionCall: { name: 'get_weather', args: { city: 'Paris' } },
            thoughtSignature: 'c2lnbmF0dXJl',
          },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'get_weather', response: { result: '{"celsius": 21}' } } },
        ],
      },
    ]);
    expect(body.toolConfig).toEqual({ functionCallingConfig: { mode: 'AUTO' } });
    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'get_weather',
            description: 'The weather in a city.',
            parameters: {
              type: 'object',
              properties: {
                city: { type: 'string' },
                unit: { type: 'string', nullable: true, enum: ['c', 'f'] },
              },
              required: ['city'],
            },
          },
        ],
      },
    ]);
  });

  it('maps usage: cached prompt tokens apart, thoughts inside the output', async () => {
    const { provider } = await startRig(
      script()
        .text('ok')
        .usage({ inputTokens: 10, cacheReadTokens: 5, outputTokens: 7, reasoningTokens: 3 }),
    );
    const response = await provider.chat(ask(true));
    expect(response.usage).toEqual({
      inputTokens: 10,
      cacheReadTokens: 5,
      cacheWriteTokens: 0,
      outputTokens: 7,
      reasoningTokens: 3,
    });
  });

  it('maps finish reasons: MAX_TOKENS is length, SAFETY is content_filter keeping the text', async () => {
    const { provider } = await startRig(
      script()
        .text('cut sh')
        .finishReason('length')
        .next()
        .text('Here is how to')
        .finishReason('content_filter')
        .times(2),
    );
    expect((await provider.chat(ask(true))).finishReason).toBe('length');
    const blocked = await provider.chat(ask(true));
    expect(blocked.finishReason).toBe('content_filter');
    expect(blocked.message.content).toBe('Here is how to');
    expect((await provider.chat(ask(false))).finishReason).toBe('content_filter');
  });

  it('reads a non-streamed answer into the same response, with events for observers', async () => {
    const { provider, server } = await startRig(
      script().reasoning('Plan.').text('Done.').toolCall('search', { q: 'x' }),
    );
    const { response, events } = await chatWithEvents(provider, {
      ...ask(false),
      maxOutputTokens: 512,
      temperature: 0.2,
      reasoning: { effort: 'low' },
    });
    expect(response.message.content).toBe('Done.');
    expect(response.message.reasoning).toBe('Plan.');
    expect(response.message.tool_calls?.[0]?.function.arguments).toBe('{"q":"x"}');
    expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'tool_calls' });
    expect(modelRequests(server)[0]?.path).toBe(`/v1beta/models/${MODEL}:generateContent`);
    expect(sentBody(server).generationConfig).toEqual({
      maxOutputTokens: 512,
      temperature: 0.2,
      thinkingConfig: { thinkingBudget: 4_000, includeThoughts: true },
    });
  });

  it('answers a blocked prompt or a prohibited-content stop with content_filter', async () => {
    const blockedPrompt = {
      promptFeedback: {
        blockReason: 'PROHIBITED_CONTENT',
        safetyRatings: [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH' }],
      },
      usageMetadata: { promptTokenCount: 12, totalTokenCount: 12 },
      modelVersion: MODEL,
      responseId: 'blocked1',
    };
    const prohibited = {
      candidates: [
        {
          content: { role: 'model', parts: [{ text: 'Partial' }] },
          finishReason: 'PROHIBITED_CONTENT',
        },
      ],
      modelVersion: MODEL,
    };
    const { provider } = await startRig(
      script()
        .fault({
          kind: 'raw',
          contentType: 'text/event-stream',
          body: `data: ${JSON.stringify(blockedPrompt)}\r\n\r\n`,
        })
        .next()
        .fault({ kind: 'raw', contentType: 'application/json', body: JSON.stringify(prohibited) }),
    );
    const { response, events } = await chatWithEvents(provider, ask(true));
    expect(response.finishReason).toBe('content_filter');
    expect(response.message.content).toBe('');
    expect(response.usage.inputTokens).toBe(12);
    expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'content_filter' });
    const plain = await provider.chat(ask(false));
    expect(plain).toMatchObject({
      finishReason: 'content_filter',
      message: { content: 'Partial' },
    });
  });
});
