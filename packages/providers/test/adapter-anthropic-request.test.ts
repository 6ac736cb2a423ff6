/**
 * What the Anthropic adapter sends, read back from the scripted server's recorded requests:
 * system extraction, tool results merged into one user turn, thinking replayed verbatim, cache
 * breakpoints, tools, tool choice, thinking budgets and images.
 */
import type { ChatMessage, ToolSchema } from '@hermes/protocol';
import { script } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatRequest } from '../src/index.js';
import {
  closeRigs,
  MODEL,
  messageRequests,
  SECRET_KEY,
  sentBody,
  startRig,
} from './support/adapter-anthropic.js';

afterEach(closeRigs);

const weatherTool: ToolSchema = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather of a city.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

/** A conversation with a system prompt, a two-call tool round and a follow-up question. */
const toolRound: ChatMessage[] = [
  { role: 'system', content: 'You are Hermes.' },
  { role: 'user', content: 'Weather in Zürich and Paris?' },
  {
    role: 'assistant',
    content: 'Checking both.',
    tool_calls: [
      {
        id: 'call_1',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Zürich"}' },
      },
      {
        id: 'call_2',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
      },
    ],
  },
  { role: 'tool', tool_call_id: 'call_1', content: 'Sunny' },
  { role: 'tool', tool_call_id: 'call_2', content: 'Rain' },
  { role: 'user', content: 'Thanks. And tomorrow?' },
];

function request(messages: ChatMessage[], extra: Partial<ChatRequest> = {}): ChatRequest {
  return { model: MODEL, messages, stream: true, ...extra };
}

/** Every `cache_control` marker in `value`, wherever it sits. */
function countMarkers(value: unknown): number {
  return JSON.stringify(value).split('"cache_control"').length - 1;
}

describe('anthropic-messages: the request it sends', () => {
  it('extracts the system prompt and merges consecutive tool results into one user turn', async () => {
    const { provider, server } = await startRig(script().text('ok'), {
      promptCaching: false,
      defaultHeaders: { 'x-hermes-session': 'sess-1' },
    });
    const req = request(toolRound);
    const before = structuredClone(req);
    await provider.chat(req);
    expect(req).toEqual(before);
    const body = sentBody(server);
    expect(body.system).toEqual([{ type: 'text', text: 'You are Hermes.' }]);
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Zürich and Paris?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking both.' },
          { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Zürich' } },
          { type: 'tool_use', id: 'call_2', name: 'get_weather', input: { city: 'Paris' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', content: 'Sunny' },
          { type: 'tool_result', tool_use_id: 'call_2', content: 'Rain' },
          { type: 'text', text: 'Thanks. And tomorrow?' },
        ],
      },
    ]);
    expect(body.model).toBe(MODEL);
    expect(body.max_tokens).toBe(64_000);
    expect(body.stream).toBe(true);
    const headers = messageRequests(server)[0]?.headers ?? {};
    // The SDK decides the scheme: `x-api-key`, or (this release) `authorization: Bearer`.
    expect(headers['x-api-key'] ?? headers.authorization?.replace(/^Bearer /, '')).toBe(SECRET_KEY);
    expect(headers['anthropic-version']).toBeDefined();
    expect(headers['x-hermes-session']).toBe('sess-1');
  });

  it('replays a thinking block with its signature exactly as the server sent it', async () => {
    const thinking = 'I need the weather tool. Ünïcödé stays intact.';
    const signature = 'c2lnbmF0dXJlLXJlcGxheS10ZXN0';
    const { provider, server } = await startRig(
      script()
        .reasoning(thinking, signature)
        .toolCall('get_weather', { city: 'Oslo' }, 'toolu_oslo')
        .text('Cold in Oslo.'),
    );
    const conversation: ChatMessage[] = [{ role: 'user', content: 'Weather in Oslo?' }];
    const first = await provider.chat(request(conversation, { tools: [weatherTool] }));
    conversation.push(first.message, {
      role: 'tool',
      tool_call_id: 'toolu_oslo',
      content: '-5 °C',
    });
    await provider.chat(request(conversation, { tools: [weatherTool] }));
    const replayed = (sentBody(server, 1).messages as { content: unknown[] }[])[1]?.content;
    expect(replayed?.[0]).toEqual({ type: 'thinking', thinking, signature });
    expect(replayed?.[1]).toMatchObject({
      type: 'tool_use',
      id: 'toolu_oslo',
      input: { city: 'Oslo' },
    });
  });

  it('marks the system prompt and the last three messages for prompt caching', async () => {
    const { provider, server } = await startRig(script().text('ok'));
    await provider.chat(request(toolRound));
    const body = sentBody(server) as {
      system: Record<string, unknown>[];
      messages: { content: Record<string, unknown>[] }[];
    };
    expect(countMarkers(body)).toBe(4);
    expect(body.system.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
    // Three wire messages, each marked on its last block.
    for (const message of body.messages) {
      expect(message.content.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
      expect(countMarkers(message.content.slice(0, -1))).toBe(0);
    }
  });

  it('never places more than four breakpoints, skips thinking blocks, honours ttl and opt-out', async () => {
    const long: ChatMessage[] = [{ role: 'system', content: 'System.' }];
    for (let i = 0; i < 6; i++) {
      long.push({ role: 'user', content: `Question ${i}` });
      long.push({
        role: 'assistant',
        content: `Answer ${i}`,
        reasoning_details: [{ type: 'thinking', thinking: 't', signature: 'sig' }],
      });
    }
    const { provider, server } = await startRig(script().text('ok').times(3), {
      promptCacheTtl: '1h',
    });
    await provider.chat(request(long));
    const body = sentBody(server) as { messages: { content: Record<string, unknown>[] }[] };
    expect(countMarkers(body)).toBe(4);
    const marked = body.messages.flatMap((m, i) =>
      m.content.filter((b) => b.cache_control !== undefined).map((b) => [i, b.type]),
    );
    expect(marked).toEqual([
      [9, 'text'],
      [10, 'text'],
      [11, 'text'],
    ]);
    expect(body.messages[11]?.content[0]).toEqual({
      type: 'thinking',
      thinking: 't',
      signature: 'sig',
    });
    expect(JSON.stringify(body)).toContain('"ttl":"1h"');

    const { provider: plain, server: plainServer } = await startRig(script().text('ok'), {
      promptCaching: false,
    });
    await plain.chat(request(long));
    expect(countMarkers(sentBody(plainServer))).toBe(0);
  });

  it('sends tools and maps every tool choice', async () => {
    const { provider, server } = await startRig(script().text('ok').times(4));
    const choices = [
      'auto',
      'none',
      'required',
      { type: 'function', name: 'get_weather' },
    ] as const;
    for (const toolChoice of choices) {
      await provider.chat(
        request([{ role: 'user', content: 'hi' }], { tools: [weatherTool], toolChoice }),
      );
    }
    expect(sentBody(server).tools).toEqual([
      {
        name: 'get_weather',
        description: 'Current weather of a city.',
        input_schema: weatherTool.function.parameters,
      },
    ]);
    expect([0, 1, 2, 3].map((i) => sentBody(server, i).tool_choice)).toEqual([
      { type: 'auto' },
      { type: 'none' },
      { type: 'any' },
      { type: 'tool', name: 'get_weather' },
    ]);
  });

  it('turns reasoning effort into a thinking budget and then leaves temperature out', async () => {
    const { provider, server } = await startRig(script().text('ok').times(5));
    const hi: ChatMessage[] = [{ role: 'user', content: 'hi' }];
    await provider.chat(request(hi, { reasoning: { effort: 'high' }, temperature: 0.3 }));
    await provider.chat(request(hi, { reasoning: { effort: 'none' }, temperature: 0.3 }));
    await provider.chat(request(hi, { reasoning: { effort: 'xhigh' }, maxOutputTokens: 5_000 }));
    await provider.chat(request(hi, { reasoning: { effort: 'low' }, maxOutputTokens: 1_500 }));
    await provider.chat(
      request(hi, {
        reasoning: { effort: 'medium' },
        tools: [weatherTool],
        toolChoice: 'required',
      }),
    );
    const bodies = [0, 1, 2, 3, 4].map((i) => sentBody(server, i));
    expect(bodies[0]).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 16_000 } });
    expect(bodies[0]).not.toHaveProperty('temperature');
    expect(bodies[1]).toMatchObject({ temperature: 0.3 });
    expect(bodies[1]).not.toHaveProperty('thinking');
    expect(bodies[2]).toMatchObject({
      max_tokens: 5_000,
      thinking: { type: 'enabled', budget_tokens: 3_976 },
    });
    expect(bodies[3]).not.toHaveProperty('thinking');
    expect(bodies[4]).not.toHaveProperty('thinking');
  });

  it('sends images as base64 or URL sources and broken tool arguments as {}', async () => {
    const { provider, server } = await startRig(script().text('ok'), { promptCaching: false });
    await provider.chat(
      request([
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Compare these.' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
            { type: 'image_url', image_url: { url: 'data:image/svg+xml;base64,PHN2Zz4=' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call.9',
              type: 'function',
              function: { name: 'write', arguments: '{"path": "a' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call.9', content: 'error: bad arguments' },
      ]),
    );
    const messages = sentBody(server).messages as { content: unknown[] }[];
    expect(messages[0]?.content).toEqual([
      { type: 'text', text: 'Compare these.' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
      { type: 'text', text: '[image omitted: unsupported data URL type image/svg+xml]' },
    ]);
    expect(messages[1]?.content).toEqual([
      { type: 'tool_use', id: 'call_9', name: 'write', input: {} },
    ]);
    expect(messages[2]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'call_9', content: 'error: bad arguments' },
    ]);
  });
});
