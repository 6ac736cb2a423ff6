/** The stream accumulator's tool-call assembly: late ids, name pieces, reused keys, any chunking. */
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../src/index.js';
import { StreamAccumulator } from '../src/stream/index.js';
import { assertValidStreamOrder } from '../src/testing.js';

const meta = { model: 'test-model', provider: 'test-provider' };

function setup() {
  const events: StreamEvent[] = [];
  let ids = 0;
  const acc = new StreamAccumulator({
    generateToolCallId: () => `gen_${ids++}`,
    onEvent: (event) => events.push(event),
  });
  return { acc, events };
}

describe('StreamAccumulator tool calls', () => {
  it('accepts arguments before the id and name arrive, and keeps first-seen order', () => {
    const { acc, events } = setup();
    acc.toolCallArgumentsDelta(7, '{"q":');
    acc.toolCallArgumentsDelta(7, '"x"');
    acc.toolCallStart(3, { id: 'call_second', name: 'search' });
    acc.toolCallArgumentsDelta(3, '{}');
    acc.toolCallStart(7, { id: 'call_first' });
    acc.toolCallStart(7, { name: 'lookup' });
    acc.toolCallArgumentsDelta(7, '}');
    const response = acc.build(meta);
    expect(response.message.tool_calls).toEqual([
      { id: 'call_first', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } },
      { id: 'call_second', type: 'function', function: { name: 'search', arguments: '{}' } },
    ]);
    expect(response.message.content).toBeNull();
    expect(response.finishReason).toBe('tool_calls');
    expect(events.filter((e) => e.type.startsWith('tool_call')).slice(0, 5)).toEqual([
      { type: 'tool_call_start', index: 1, id: 'call_second', name: 'search' },
      { type: 'tool_call_delta', index: 1, argumentsDelta: '{}' },
      { type: 'tool_call_start', index: 0, id: 'call_first', name: 'lookup' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"q":"x"' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '}' },
    ]);
    assertValidStreamOrder(events);
  });

  it('joins a name sent in pieces, ignores a repeated whole name and a repeated id', () => {
    const { acc, events } = setup();
    acc.toolCallStart(0, { id: 'call_1', name: 'get_' });
    acc.toolCallStart(0, { name: 'weather' });
    acc.toolCallStart(0, { id: 'call_1', name: 'get_weather' });
    acc.toolCallArgumentsDelta(0, '{"a":1}');
    acc.toolCallStart(0, { id: 'call_1', name: 'get_weather' });
    const response = acc.build(meta);
    expect(response.message.tool_calls?.[0]?.function.name).toBe('get_weather');
    expect(response.message.tool_calls).toHaveLength(1);
    assertValidStreamOrder(events);
  });

  it('treats a new id on a reused wire index as a new call', () => {
    const { acc, events } = setup();
    acc.toolCallStart(0, { id: 'call_1', name: 'a' });
    acc.toolCallArgumentsDelta(0, '{}');
    acc.toolCallStart(0, { id: 'call_2', name: 'b' });
    acc.toolCallArgumentsDelta(0, '{"n":2}');
    const calls = acc.build(meta).message.tool_calls;
    expect(calls?.map((c) => [c.id, c.function.name, c.function.arguments])).toEqual([
      ['call_1', 'a', '{}'],
      ['call_2', 'b', '{"n":2}'],
    ]);
    assertValidStreamOrder(events);
    // The first call closed as soon as its key was reused.
    expect(events.findIndex((e) => e.type === 'tool_call_end' && e.index === 0)).toBeLessThan(
      events.findIndex((e) => e.type === 'tool_call_start' && e.index === 1),
    );
  });

  it('generates an id for a call that never got one, and closes on toolCallDone', () => {
    const { acc, events } = setup();
    acc.toolCallStart('item_1', { name: 'noop' });
    acc.toolCallDone('item_1');
    acc.toolCallArgumentsDelta('item_1', 'ignored after done');
    acc.toolCallDone('unknown');
    expect(events).toEqual([
      { type: 'tool_call_start', index: 0, id: 'gen_0', name: 'noop' },
      {
        type: 'tool_call_end',
        index: 0,
        toolCall: { id: 'gen_0', type: 'function', function: { name: 'noop', arguments: '' } },
      },
    ]);
    const response = acc.build(meta);
    expect(response.message.tool_calls?.[0]?.function.arguments).toBe('');
    assertValidStreamOrder(events);
  });

  it('default tool-call ids look like OpenAI ids and differ', () => {
    const acc = new StreamAccumulator();
    acc.toolCallStart(0, { name: 'a' });
    acc.toolCallStart(1, { name: 'b' });
    const [first, second] = acc.build(meta).message.tool_calls ?? [];
    expect(first?.id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(second?.id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(first?.id).not.toBe(second?.id);
  });
});

describe('StreamAccumulator under random chunking', () => {
  /** A deterministic pseudo-random generator, so a failure is reproducible. */
  function random(seed: number): () => number {
    let state = seed;
    return () => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return state / 2_147_483_648;
    };
  }

  const text = '<think>Plan the reply.</think>\n\nHere: a < b, <div>x</div> and x<3.\n';
  const argsA = '{"path":"/tmp/a.txt","mode":"read"}';
  const argsB = '{"query":"SELECT * FROM t WHERE a < 3"}';

  function cut(value: string, next: () => number): string[] {
    const pieces: string[] = [];
    let at = 0;
    while (at < value.length) {
      const size = 1 + Math.floor(next() * 6);
      pieces.push(value.slice(at, at + size));
      at += size;
    }
    return pieces;
  }

  it('gives the same response and a valid stream for 200 random cuttings', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const next = random(seed);
      const { acc, events } = setup();
      const first: (() => void)[] = [
        ...cut(text, next).map((piece) => () => acc.textDelta(piece)),
        () => acc.toolCallStart(0, { id: 'call_a', name: 'read_file' }),
        ...cut(argsA, next).map((piece) => () => acc.toolCallArgumentsDelta(0, piece)),
      ];
      const second = cut(argsB, next).map((piece) => () => acc.toolCallArgumentsDelta(1, piece));
      // The second call's id and name may come before, between or after its fragments.
      second.splice(Math.floor(next() * (second.length + 1)), 0, () =>
        acc.toolCallStart(1, { id: 'call_b', name: 'sql' }),
      );
      // Interleave the two sequences at random, each keeping its own order.
      while (first.length > 0 || second.length > 0) {
        const pick = second.length === 0 || (first.length > 0 && next() < 0.5) ? first : second;
        pick.shift()?.();
      }
      const response = acc.build(meta);
      assertValidStreamOrder(events);
      expect(response.message.content, `seed ${seed}`).toBe('Here: a < b, <div>x</div> and x<3.\n');
      expect(response.message.reasoning).toBe('Plan the reply.');
      const calls = response.message.tool_calls ?? [];
      const byId = Object.fromEntries(calls.map((c) => [c.id, c.function]));
      expect(byId).toEqual({
        call_a: { name: 'read_file', arguments: argsA },
        call_b: { name: 'sql', arguments: argsB },
      });
    }
  });
});
