/** The stream accumulator: exact event sequences and the normalized response it builds. */
import { isHermesError } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { ChatResponseSchema, type StreamEvent } from '../src/index.js';
import { StreamAccumulator, type StreamAccumulatorOptions } from '../src/stream/index.js';
import { assertValidStreamOrder } from '../src/testing.js';

const meta = { model: 'test-model', provider: 'test-provider' };

function setup(options: Omit<StreamAccumulatorOptions, 'onEvent'> = {}) {
  const events: StreamEvent[] = [];
  let ids = 0;
  const acc = new StreamAccumulator({
    generateToolCallId: () => `gen_${ids++}`,
    ...options,
    onEvent: (event) => events.push(event),
  });
  return { acc, events };
}

const zeroUsage = {
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
};

describe('StreamAccumulator events', () => {
  it('emits the exact sequence for reasoning, text and two interleaved tool calls', () => {
    const { acc, events } = setup();
    acc.reasoningDelta('Need ');
    acc.reasoningDelta('two lookups.');
    acc.textDelta('Checking ');
    acc.textDelta('both.');
    acc.toolCallStart(0, { id: 'call_a', name: 'weather' });
    acc.toolCallArgumentsDelta(0, '{"city":');
    acc.toolCallStart(1, { id: 'call_b', name: 'time' });
    acc.toolCallArgumentsDelta(1, '{"tz":"UTC"}');
    acc.toolCallArgumentsDelta(0, '"Oslo"}');
    acc.usage({ inputTokens: 12, outputTokens: 30 });
    acc.finish('tool_calls');
    const response = acc.build({ ...meta, responseId: 'resp_1' });

    const callA = {
      id: 'call_a',
      type: 'function',
      function: { name: 'weather', arguments: '{"city":"Oslo"}' },
    };
    const callB = {
      id: 'call_b',
      type: 'function',
      function: { name: 'time', arguments: '{"tz":"UTC"}' },
    };
    expect(events).toEqual([
      { type: 'reasoning_start', index: 0 },
      { type: 'reasoning_delta', index: 0, delta: 'Need ' },
      { type: 'reasoning_delta', index: 0, delta: 'two lookups.' },
      { type: 'text_start', index: 0 },
      { type: 'text_delta', index: 0, delta: 'Checking ' },
      { type: 'text_delta', index: 0, delta: 'both.' },
      { type: 'tool_call_start', index: 0, id: 'call_a', name: 'weather' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"city":' },
      { type: 'tool_call_start', index: 1, id: 'call_b', name: 'time' },
      { type: 'tool_call_delta', index: 1, argumentsDelta: '{"tz":"UTC"}' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '"Oslo"}' },
      { type: 'usage', usage: { ...zeroUsage, inputTokens: 12, outputTokens: 30 } },
      { type: 'reasoning_end', index: 0, text: 'Need two lookups.' },
      { type: 'text_end', index: 0, text: 'Checking both.' },
      { type: 'tool_call_end', index: 0, toolCall: callA },
      { type: 'tool_call_end', index: 1, toolCall: callB },
      { type: 'done', finishReason: 'tool_calls' },
    ]);
    assertValidStreamOrder(events);
    expect(response).toEqual({
      message: {
        role: 'assistant',
        content: 'Checking both.',
        tool_calls: [callA, callB],
        reasoning: 'Need two lookups.',
        finish_reason: 'tool_calls',
      },
      finishReason: 'tool_calls',
      usage: { ...zeroUsage, inputTokens: 12, outputTokens: 30 },
      model: 'test-model',
      provider: 'test-provider',
      responseId: 'resp_1',
    });
    expect(ChatResponseSchema.parse(response)).toEqual(response);
  });

  it('numbers blocks per kind and opens a new block after endText / endReasoning', () => {
    const { acc, events } = setup();
    acc.reasoningDelta('first thought');
    acc.endReasoning();
    acc.textDelta('Part one. ');
    acc.endText();
    acc.reasoningDelta('second thought');
    acc.endReasoning();
    acc.textDelta('Part two.');
    const response = acc.build(meta);
    expect(events.map((e) => `${e.type}${'index' in e ? `#${e.index}` : ''}`)).toEqual([
      'reasoning_start#0',
      'reasoning_delta#0',
      'reasoning_end#0',
      'text_start#0',
      'text_delta#0',
      'text_end#0',
      'reasoning_start#1',
      'reasoning_delta#1',
      'reasoning_end#1',
      'text_start#1',
      'text_delta#1',
      'text_end#1',
      'done',
    ]);
    assertValidStreamOrder(events);
    expect(response.message.content).toBe('Part one. Part two.');
    expect(response.message.reasoning).toBe('first thought\n\nsecond thought');
    expect(response.finishReason).toBe('stop');
  });

  it('routes inline think blocks to reasoning and keeps the tags when scrubbing is off', () => {
    const scrubbed = setup();
    scrubbed.acc.textDelta('<thi');
    scrubbed.acc.textDelta('nk>hidden plan</think>\n\nVisible <b>answer</b>');
    const response = scrubbed.acc.build(meta);
    expect(response.message.content).toBe('Visible <b>answer</b>');
    expect(response.message.reasoning).toBe('hidden plan');
    assertValidStreamOrder(scrubbed.events);
    expect(scrubbed.events.slice(0, 3)).toEqual([
      { type: 'reasoning_start', index: 0 },
      { type: 'reasoning_delta', index: 0, delta: 'hidden plan' },
      { type: 'reasoning_end', index: 0, text: 'hidden plan' },
    ]);

    const raw = setup({ scrubThinkBlocks: false });
    raw.acc.textDelta('<think>x</think>y');
    expect(raw.acc.build(meta).message).toEqual({
      role: 'assistant',
      content: '<think>x</think>y',
      finish_reason: 'stop',
    });
  });

  it('releases a held tail and an unclosed think block at build', () => {
    const { acc, events } = setup();
    acc.textDelta('Answer first.\n<think>cut off');
    acc.textDelta(' mid-thought </thin');
    const response = acc.build(meta);
    expect(response.message.content).toBe('Answer first.\n');
    expect(response.message.reasoning).toBe('cut off mid-thought </thin');
    assertValidStreamOrder(events);
  });
});

describe('StreamAccumulator usage, finish and lifecycle', () => {
  it('merges usage counters, latest value wins, invalid values ignored', () => {
    const { acc, events } = setup();
    acc.usage({ inputTokens: 100, cacheReadTokens: 40, cacheWriteTokens: 5 });
    acc.usage({ outputTokens: 1 });
    acc.usage({ outputTokens: 1 });
    acc.usage({ outputTokens: 57.9, reasoningTokens: 20, inputTokens: null });
    acc.usage({ inputTokens: -1, outputTokens: Number.NaN, cacheReadTokens: Infinity });
    acc.textDelta('ok');
    const response = acc.build(meta);
    const expected = {
      inputTokens: 100,
      outputTokens: 57,
      cacheReadTokens: 40,
      cacheWriteTokens: 5,
      reasoningTokens: 20,
    };
    expect(response.usage).toEqual(expected);
    const usageEvents = events.filter((e) => e.type === 'usage');
    expect(usageEvents).toHaveLength(3);
    expect(usageEvents.at(-1)).toEqual({ type: 'usage', usage: expected });
  });

  it('turns a stop with tool calls into tool_calls and keeps other reasons', () => {
    const stop = setup();
    stop.acc.toolCallStart(0, { id: 'c', name: 'n' });
    stop.acc.finish('stop');
    expect(stop.acc.build(meta).finishReason).toBe('tool_calls');
    const length = setup();
    length.acc.textDelta('trunc');
    length.acc.finish('length');
    const response = length.acc.build(meta);
    expect(response.finishReason).toBe('length');
    expect(response.message.finish_reason).toBe('length');
    expect(length.events.at(-1)).toEqual({ type: 'done', finishReason: 'length' });
  });

  it('builds an empty answer with empty content and keeps reasoning details verbatim', () => {
    const { acc, events } = setup();
    const thinking = { type: 'thinking', text: 'hmm', signature: 'sig==', extra: { n: 1 } };
    const redacted = { type: 'redacted_thinking', data: 'opaque' };
    acc.reasoningDetail(thinking);
    acc.reasoningDetail(redacted);
    const response = acc.build(meta);
    expect(response.message).toEqual({
      role: 'assistant',
      content: '',
      reasoning_details: [thinking, redacted],
      finish_reason: 'stop',
    });
    expect(response.message.reasoning_details?.[0]).toBe(thinking);
    expect(events).toEqual([{ type: 'done', finishReason: 'stop' }]);
    expect(ChatResponseSchema.safeParse(response).success).toBe(true);
  });

  it('builds once: a second build returns the same response and emits nothing', () => {
    const { acc, events } = setup();
    acc.textDelta('hi');
    const first = acc.build(meta);
    const count = events.length;
    acc.textDelta(' more');
    expect(acc.build({ model: 'other', provider: 'other' })).toBe(first);
    expect(events).toHaveLength(count);
    expect(acc.partialText()).toBe('hi');
    expect(acc.closed).toBe(true);
  });

  it('after abandon: no done, later chunks ignored, build refuses, partial text kept', () => {
    const { acc, events } = setup();
    acc.textDelta('Half an ans');
    acc.textDelta('wer <');
    acc.abandon();
    acc.textDelta('late chunk');
    acc.toolCallStart(0, { id: 'x', name: 'y' });
    expect(acc.partialText()).toBe('Half an answer ');
    expect(events.some((e) => e.type === 'done' || e.type.endsWith('_end'))).toBe(false);
    expect(() => acc.build(meta)).toThrow(
      expect.objectContaining({ code: 'provider.stream_abandoned' }),
    );
  });

  it('rejects empty model or provider names with a validation error', () => {
    const { acc } = setup();
    let caught: unknown;
    try {
      acc.build({ model: '', provider: 'p' });
    } catch (error) {
      caught = error;
    }
    expect(isHermesError(caught) && caught.code).toBe('validation.invalid_input');
    expect(String((caught as Error).message)).toContain('model must not be empty');
  });

  it('an observer that throws does not break the stream', () => {
    const seen: unknown[] = [];
    let calls = 0;
    const acc = new StreamAccumulator({
      onEvent: () => {
        calls++;
        throw new Error('observer bug');
      },
      onObserverError: (error) => seen.push(error),
    });
    acc.textDelta('still works');
    const response = acc.build(meta);
    expect(response.message.content).toBe('still works');
    expect(calls).toBe(4);
    expect(seen).toHaveLength(4);
  });
});
