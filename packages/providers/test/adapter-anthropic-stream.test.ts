/**
 * The Anthropic adapter reading answers over real HTTP: text, thinking with its signature, split
 * tool-call JSON, usage with cache counters, stop reasons, the non-streamed path, and the event
 * types and block types it must skip.
 */
import {
  encoderFor,
  formatSseFrame,
  type ScriptTurnInput,
  ScriptTurnSchema,
  type SseFrame,
  script,
} from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { isProviderError } from '../src/classified-error.js';
import type { ChatRequest } from '../src/index.js';
import { partialTextOf } from '../src/stream/interruption.js';
import type { StreamEvent } from '../src/stream-event.js';
import { assertValidChatResponse, assertValidStreamOrder } from '../src/testing.js';
import { closeRigs, MODEL, rejectionOf, startRig } from './support/adapter-anthropic.js';

afterEach(closeRigs);

function ask(stream = true, text = 'Hello?'): ChatRequest {
  return { model: MODEL, messages: [{ role: 'user', content: text }], stream };
}

/** Calls `chat`, checks the stream's order and the response's shape, returns both. */
async function chatWithEvents(
  provider: {
    chat: (r: ChatRequest, o: { onEvent: (e: StreamEvent) => void }) => Promise<unknown>;
  },
  request: ChatRequest,
) {
  const events: StreamEvent[] = [];
  const response = assertValidChatResponse(
    await provider.chat(request, { onEvent: (event) => events.push(event) }),
  );
  assertValidStreamOrder(events);
  return { response, events };
}

/** A 200 event stream made of `frames`, as a raw scripted answer. */
function rawStream(frames: readonly SseFrame[]): ScriptTurnInput {
  return {
    fault: {
      kind: 'raw',
      status: 200,
      contentType: 'text/event-stream; charset=utf-8',
      body: frames.map(formatSseFrame).join(''),
    },
  };
}

/** The frames the testkit would send for `turn`, to splice unusual frames into. */
function framesOf(turn: ScriptTurnInput): SseFrame[] {
  return encoderFor('anthropic-messages').stream(ScriptTurnSchema.parse(turn), {
    model: MODEL,
    includeUsage: false,
    responseId: 'raw000000001',
    created: 1_704_067_200,
  });
}

const signature = 'RXN0YWJsZVNpZ25hdHVyZQ==';
const searchInput = { query: 'café "quoted"', filters: { year: [2023, 2024] }, limit: 5 };

describe('anthropic-messages: reading answers', () => {
  it('streams text in order and reports who answered', async () => {
    const { provider } = await startRig(
      script().text('Hello from Claude, in pieces.').model('claude-haiku-4-5-20251001'),
      { providerName: 'anthropic' },
    );
    const { response, events } = await chatWithEvents(provider, ask());
    expect(response.message).toEqual({
      role: 'assistant',
      content: 'Hello from Claude, in pieces.',
      finish_reason: 'stop',
    });
    expect(response.finishReason).toBe('stop');
    expect(response.model).toBe('claude-haiku-4-5-20251001');
    expect(response.provider).toBe('anthropic');
    expect(response.responseId).toMatch(/^msg_/);
    expect(events.filter((e) => e.type === 'text_delta').length).toBeGreaterThan(1);
    expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'stop' });
  });

  it('keeps thinking as reasoning and its signed block verbatim in reasoning_details', async () => {
    const thinking = 'The user greets me; answer briefly. 🌦';
    const { provider } = await startRig(
      script().reasoning(thinking, signature).text('Hi!').chunking({ textChunkSize: 4 }),
    );
    const { response, events } = await chatWithEvents(provider, ask());
    expect(response.message.reasoning).toBe(thinking);
    expect(response.message.reasoning_details).toEqual([{ type: 'thinking', thinking, signature }]);
    expect(response.message.content).toBe('Hi!');
    const kinds = events.map((e) => e.type);
    expect(kinds.indexOf('reasoning_end')).toBeLessThan(kinds.indexOf('text_start'));
    expect(events.filter((e) => e.type === 'reasoning_delta').length).toBeGreaterThan(1);
  });

  it('assembles tool calls from split input_json fragments into exact arguments', async () => {
    const { provider } = await startRig(
      script()
        .text('Let me check.')
        .toolCall('get_weather', { city: 'Zürich', unit: 'c' }, 'toolu_weather')
        .toolCall('search', JSON.stringify(searchInput))
        .chunking({ argumentsChunkSize: 3 }),
    );
    const { response, events } = await chatWithEvents(provider, ask());
    expect(response.finishReason).toBe('tool_calls');
    expect(response.message.content).toBe('Let me check.');
    const calls = response.message.tool_calls ?? [];
    expect(calls).toHaveLength(2);
    expect(calls[0]).toEqual({
      id: 'toolu_weather',
      type: 'function',
      function: { name: 'get_weather', arguments: JSON.stringify({ city: 'Zürich', unit: 'c' }) },
    });
    expect(calls[1]?.id).toMatch(/^toolu_/);
    expect(calls[1]?.function.name).toBe('search');
    expect(JSON.parse(calls[1]?.function.arguments ?? '')).toEqual(searchInput);
    const fragments = events.filter((e) => e.type === 'tool_call_delta' && e.index === 1);
    expect(fragments.length).toBeGreaterThan(5);
  });

  it('keeps broken tool-call JSON raw, for the loop to reject', async () => {
    const { provider } = await startRig(script().toolCall('write_file', '{"path": "a.txt", "con'));
    const { response } = await chatWithEvents(provider, ask());
    expect(response.message.content).toBeNull();
    expect(response.message.tool_calls?.[0]?.function.arguments).toBe('{"path": "a.txt", "con');
  });

  it('maps usage including cache reads and writes and thinking tokens', async () => {
    const usage = {
      inputTokens: 120,
      outputTokens: 42,
      cacheReadTokens: 900,
      cacheWriteTokens: 300,
      reasoningTokens: 10,
    };
    const { provider } = await startRig(script().text('Cached.').usage(usage).times(2));
    const { response, events } = await chatWithEvents(provider, ask());
    expect(response.usage).toEqual(usage);
    const last = events.filter((e) => e.type === 'usage').at(-1);
    expect(last?.type === 'usage' ? last.usage : undefined).toEqual(usage);
    const plain = await provider.chat(ask(false));
    expect(plain.usage).toEqual(usage);
  });

  it('maps stop reasons: end_turn, max_tokens, refusal, tool_use', async () => {
    const { provider } = await startRig(
      script()
        .text('done')
        .next()
        .text('cut sh')
        .finishReason('length')
        .next()
        .text('I can')
        .finishReason('content_filter')
        .next()
        .toolCall('noop'),
    );
    const reasons: string[] = [];
    for (let i = 0; i < 3; i++) reasons.push((await provider.chat(ask())).finishReason);
    expect(reasons).toEqual(['stop', 'length', 'content_filter']);
    const tools = await provider.chat(ask());
    expect(tools.finishReason).toBe('tool_calls');
    expect(tools.message.tool_calls?.[0]?.function.arguments).toBe('{}');
  });

  it('reads a non-streamed Message into the same response, with events for observers', async () => {
    const turn: ScriptTurnInput = {
      reasoning: 'Plan: call the tool.',
      reasoningSignature: signature,
      text: 'Calling.',
      toolCalls: [{ id: 'toolu_1', name: 'search', arguments: searchInput }],
      usage: { inputTokens: 11, outputTokens: 7, cacheReadTokens: 5 },
    };
    const { provider, server } = await startRig({ turns: [turn, turn] });
    const streamed = await provider.chat(ask(true));
    const { response: plain, events } = await chatWithEvents(provider, ask(false));
    expect(server.requests.map((r) => r.stream)).toEqual([true, false]);
    expect({ ...plain, responseId: undefined }).toEqual({ ...streamed, responseId: undefined });
    expect(plain.message.reasoning_details).toEqual([
      { type: 'thinking', thinking: 'Plan: call the tool.', signature },
    ]);
    expect(JSON.parse(plain.message.tool_calls?.[0]?.function.arguments ?? '')).toEqual(
      searchInput,
    );
    expect(events.filter((e) => e.type === 'text_delta')).toEqual([
      { type: 'text_delta', index: 0, delta: 'Calling.' },
    ]);
  });

  it('skips pings, unknown events, server-tool blocks and citations deltas', async () => {
    const frames = framesOf({ text: 'Visible answer.', chunking: { textChunkSize: 5 } });
    const start = frames.findIndex(
      (f) => (f.data as { type: string }).type === 'content_block_start',
    );
    const extra: SseFrame[] = [
      { event: 'ping', data: { type: 'ping' } },
      { event: 'future_event', data: { type: 'future_event', payload: [1, 2, 3] } },
      {
        event: 'content_block_start',
        data: {
          type: 'content_block_start',
          index: 7,
          content_block: {
            type: 'server_tool_use',
            id: 'srvtoolu_1',
            name: 'web_search',
            input: {},
          },
        },
      },
      {
        event: 'content_block_delta',
        data: {
          type: 'content_block_delta',
          index: 7,
          delta: { type: 'input_json_delta', partial_json: '{"q":1}' },
        },
      },
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 7 } },
    ];
    const citation: SseFrame = {
      event: 'content_block_delta',
      data: {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'citations_delta', citation: { type: 'char_location', cited_text: 'x' } },
      },
    };
    frames.splice(start, 0, ...extra);
    frames.splice(start + extra.length + 2, 0, citation);
    const { provider } = await startRig({ turns: [rawStream(frames)] });
    const { response } = await chatWithEvents(provider, ask());
    expect(response.message.content).toBe('Visible answer.');
    expect(response.message.tool_calls).toBeUndefined();
  });

  it('keeps redacted thinking for replay and shows no text for it', async () => {
    const frames = framesOf({ text: 'Answer.' });
    const firstBlock = frames.findIndex(
      (f) => (f.data as { type: string }).type === 'content_block_start',
    );
    const shifted = frames.map((frame) => shiftIndex(frame, 1));
    shifted.splice(
      firstBlock,
      0,
      {
        event: 'content_block_start',
        data: {
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'redacted_thinking', data: 'ENCRYPTED==' },
        },
      },
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
    );
    const { provider } = await startRig({ turns: [rawStream(shifted)] });
    const { response, events } = await chatWithEvents(provider, ask());
    expect(response.message.reasoning_details).toEqual([
      { type: 'redacted_thinking', data: 'ENCRYPTED==' },
    ]);
    expect(response.message.reasoning).toBeUndefined();
    expect(events.some((e) => e.type === 'reasoning_start')).toBe(false);
    expect(response.message.content).toBe('Answer.');
  });

  it('turns an error event after some text into a classified error keeping that text', async () => {
    const frames = framesOf({ text: 'Partial answer', chunking: { textChunkSize: 8 } });
    const firstDelta = frames.findIndex(
      (f) => (f.data as { type: string }).type === 'content_block_delta',
    );
    const cut = frames.slice(0, firstDelta + 1);
    cut.push({
      event: 'error',
      data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    });
    const { provider } = await startRig({ turns: [rawStream(cut)] });
    const error = await rejectionOf(provider.chat(ask(), { onEvent: () => undefined }));
    expect(isProviderError(error)).toBe(true);
    expect(isProviderError(error) && error.classified.reason).toBe('overloaded');
    expect(partialTextOf(error)).toBe('Partial ');
  });
});

/** `frame` with its content-block index moved up by `by` (to make room for a new block). */
function shiftIndex(frame: SseFrame, by: number): SseFrame {
  const data = frame.data as { index?: unknown };
  if (typeof data.index !== 'number') return frame;
  return { ...frame, data: { ...data, index: data.index + by } };
}
