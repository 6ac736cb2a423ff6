/** The Anthropic Messages encoder on its own: body shapes, event order, chunking, ids, usage. */
import { describe, expect, it } from 'vitest';
import { anthropicMessagesEncoder as encoder } from '../src/protocols/anthropic-messages.ts';
import type { SseFrame } from '../src/protocols/encoder.ts';
import { type ScriptTurnInput, ScriptTurnSchema } from '../src/script.ts';
import { EVERY_USAGE_FIELD, fixedContext } from './support/encoder-fixtures.ts';

const context = fixedContext('claude-test', 'm1');

type Json = Record<string, unknown> & {
  content: Array<Record<string, unknown>>;
  usage: Record<string, unknown>;
};
type Frame = SseFrame & { data: Record<string, unknown> & { delta?: Record<string, unknown> } };

function body(input: ScriptTurnInput): Json {
  return encoder.json(ScriptTurnSchema.parse(input), context) as Json;
}

function frames(input: ScriptTurnInput): Frame[] {
  return encoder.stream(ScriptTurnSchema.parse(input), context) as Frame[];
}

/** The delta payloads of one block, in order. */
function deltasOf(list: Frame[], index: number): Array<Record<string, unknown>> {
  return list
    .filter((frame) => frame.data.type === 'content_block_delta' && frame.data.index === index)
    .map((frame) => frame.data.delta ?? {});
}

const richTurn: ScriptTurnInput = {
  reasoning: 'Let me think this through.',
  reasoningSignature: 'c2lnbmF0dXJl',
  text: 'Here you go.',
  toolCalls: [
    { id: 'toolu_fixed', name: 'search', arguments: { query: 'cats', limit: 3 } },
    { name: 'write', arguments: '{"path": "a.txt"}' },
  ],
  usage: EVERY_USAGE_FIELD,
  chunking: { textChunkSize: 4, argumentsChunkSize: 5 },
};

describe('anthropic-messages json', () => {
  it('answers with thinking, text and tool_use blocks in order, inputs as objects', () => {
    const message = body(richTurn);
    expect(message).toMatchObject({
      id: 'msg_m1',
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      stop_reason: 'tool_use',
      stop_sequence: null,
      stop_details: null,
    });
    expect(message.content[0]).toEqual({
      type: 'thinking',
      thinking: 'Let me think this through.',
      signature: 'c2lnbmF0dXJl',
    });
    expect(message.content[1]).toEqual({ type: 'text', text: 'Here you go.', citations: null });
    expect(message.content[2]).toMatchObject({
      type: 'tool_use',
      id: 'toolu_fixed',
      name: 'search',
      input: { query: 'cats', limit: 3 },
    });
    expect(message.content[3]).toMatchObject({ name: 'write', input: { path: 'a.txt' } });
    expect(String(message.content[3]?.id)).toMatch(/^toolu_m1/);
  });

  it('maps usage one to one, cache counters apart from input', () => {
    expect(body(richTurn).usage).toMatchObject({
      input_tokens: 10,
      output_tokens: 7,
      cache_read_input_tokens: 5,
      cache_creation_input_tokens: 2,
      output_tokens_details: { thinking_tokens: 3 },
    });
  });

  it('maps every finish reason to its stop reason', () => {
    expect(body({ text: 'a' }).stop_reason).toBe('end_turn');
    expect(body({ text: 'a', finishReason: 'length' }).stop_reason).toBe('max_tokens');
    const refused = body({ text: 'a', finishReason: 'content_filter' });
    expect(refused.stop_reason).toBe('refusal');
    expect(refused.stop_details).toMatchObject({ type: 'refusal' });
    expect(body({ toolCalls: [{ name: 'f' }] }).stop_reason).toBe('tool_use');
  });

  it('generates a stable base64 signature when the script gives none', () => {
    const first = body({ reasoning: 'hmm', text: 'ok' }).content[0]?.signature;
    const again = body({ reasoning: 'hmm', text: 'ok' }).content[0]?.signature;
    const other = body({ reasoning: 'other', text: 'ok' }).content[0]?.signature;
    expect(first).toMatch(/^[A-Za-z0-9+/]{20,}={0,2}$/);
    expect(again).toBe(first);
    expect(other).not.toBe(first);
  });

  it('cannot carry broken or non-object argument JSON, so such input becomes {}', () => {
    const message = body({
      toolCalls: [
        { name: 'broken', arguments: '{"a": ' },
        { name: 'array', arguments: '[1, 2]' },
      ],
    });
    expect(message.content.map((block) => block.input)).toEqual([{}, {}]);
    expect(message.content.some((block) => block.type === 'text')).toBe(false);
  });
});

describe('anthropic-messages stream', () => {
  it('emits message_start, ping, block events, message_delta and message_stop, named by type', () => {
    const list = frames(richTurn);
    expect(list.map((frame) => frame.event)).toEqual(list.map((frame) => frame.data.type));
    const types = list.map((frame) => frame.data.type);
    const collapsed = types.filter((type, i) => type !== types[i - 1]);
    expect(collapsed).toEqual([
      'message_start',
      'ping',
      ...Array.from({ length: 4 }, () => [
        'content_block_start',
        'content_block_delta',
        'content_block_stop',
      ]).flat(),
      'message_delta',
      'message_stop',
    ]);
    const starts = list.filter((frame) => frame.data.type === 'content_block_start');
    expect(starts.map((frame) => frame.data.index)).toEqual([0, 1, 2, 3]);
  });

  it('starts with an empty message and first-token usage', () => {
    const start = frames(richTurn)[0]?.data.message as Json;
    expect(start).toMatchObject({ id: 'msg_m1', content: [], stop_reason: null });
    expect(start.usage).toMatchObject({
      input_tokens: 10,
      output_tokens: 1,
      cache_read_input_tokens: 5,
    });
    const silent = frames({ text: 'x' })[0]?.data.message as Json;
    expect(silent.usage.output_tokens).toBe(0);
  });

  it('sends thinking in fragments and then one signature_delta', () => {
    const deltas = deltasOf(frames(richTurn), 0);
    const thinking = deltas.filter((d) => d.type === 'thinking_delta').map((d) => d.thinking);
    expect(thinking.join('')).toBe('Let me think this through.');
    expect(thinking.every((piece) => String(piece).length <= 4)).toBe(true);
    expect(deltas.at(-1)).toEqual({ type: 'signature_delta', signature: 'c2lnbmF0dXJl' });
    expect(deltas.filter((d) => d.type === 'signature_delta')).toHaveLength(1);
  });

  it('sends text deltas and raw input_json fragments by the scripted sizes', () => {
    const list = frames(richTurn);
    const text = deltasOf(list, 1).map((d) => d.text);
    expect(text).toEqual(['Here', ' you', ' go.']);
    const start = list.find((f) => f.data.type === 'content_block_start' && f.data.index === 3);
    expect(start?.data.content_block).toMatchObject({ type: 'tool_use', input: {}, name: 'write' });
    const json = deltasOf(list, 3).map((d) => d.partial_json);
    expect(json).toEqual(['{"pat', 'h": "', 'a.txt', '"}']);
    expect(deltasOf(list, 3).every((d) => d.type === 'input_json_delta')).toBe(true);
  });

  it('streams broken argument JSON verbatim', () => {
    const list = frames({ toolCalls: [{ name: 'b', arguments: '{"a": [' }] });
    expect(
      deltasOf(list, 0)
        .map((d) => d.partial_json)
        .join(''),
    ).toBe('{"a": [');
  });

  it('closes with message_delta carrying the stop reason and cumulative usage', () => {
    const list = frames({ ...richTurn, finishReason: 'length' });
    const delta = list.find((frame) => frame.data.type === 'message_delta')?.data;
    expect(delta?.delta).toMatchObject({ stop_reason: 'max_tokens', stop_sequence: null });
    expect(delta?.usage).toMatchObject({
      output_tokens: 7,
      input_tokens: 10,
      cache_read_input_tokens: 5,
      cache_creation_input_tokens: 2,
    });
    expect(list.at(-1)?.data).toEqual({ type: 'message_stop' });
  });
});

describe('anthropic-messages errors', () => {
  it.each([
    [400, 'invalid_request_error'],
    [401, 'authentication_error'],
    [403, 'permission_error'],
    [404, 'not_found_error'],
    [413, 'request_too_large'],
    [429, 'rate_limit_error'],
    [500, 'api_error'],
    [529, 'overloaded_error'],
    [503, 'api_error'],
    [418, 'invalid_request_error'],
  ])('derives the error type of status %i', (status, type) => {
    expect(encoder.errorBody(status, 'went wrong')).toEqual({
      type: 'error',
      error: { type, message: 'went wrong' },
    });
  });

  it('prefers the scripted error type', () => {
    expect(encoder.errorBody(400, 'big', 'custom_error')).toEqual({
      type: 'error',
      error: { type: 'custom_error', message: 'big' },
    });
  });
});
