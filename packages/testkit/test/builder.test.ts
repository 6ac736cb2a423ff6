/** The script builder's turn-splitting rules and the fault presets' shapes. */
import { describe, expect, it } from 'vitest';
import { script } from '../src/builder.ts';
import { faults } from '../src/faults.ts';
import { FaultSchema, ScriptSchema } from '../src/script.ts';

describe('ScriptBuilder', () => {
  it('keeps reasoning, text and tool calls in stream order in one turn', () => {
    const built = script()
      .reasoning('think', 'sig')
      .text('Reading.')
      .toolCall('read_file', { path: 'a' })
      .toolCall('grep', '{"q":', 'call_x')
      .usage({ inputTokens: 5 })
      .build();
    expect(built.turns).toHaveLength(1);
    expect(built.turns[0]).toMatchObject({
      reasoning: 'think',
      reasoningSignature: 'sig',
      text: 'Reading.',
      toolCalls: [
        { name: 'read_file', arguments: { path: 'a' } },
        { id: 'call_x', name: 'grep', arguments: '{"q":' },
      ],
      usage: { inputTokens: 5, outputTokens: 0 },
      times: 1,
      delayMs: 0,
    });
    expect(built.models).toEqual(['scripted-model']);
  });

  it('starts a new turn when a part cannot follow the current one', () => {
    const built = script()
      .text('a')
      .toolCall('x')
      .text('b')
      .reasoning('r')
      .text('c')
      .text('d')
      .build();
    expect(built.turns.map((t) => [t.reasoning, t.text, t.toolCalls.map((c) => c.name)])).toEqual([
      [undefined, 'a', ['x']],
      [undefined, 'b', []],
      ['r', 'c', []],
      [undefined, 'd', []],
    ]);
  });

  it('applies settings to the latest turn', () => {
    const built = script()
      .text('a')
      .delay(5)
      .times(2)
      .match({ model: 'm' })
      .finishReason('length')
      .model('reported')
      .chunking({ textChunkSize: 1 })
      .text('b')
      .build();
    expect(built.turns[0]).toMatchObject({
      text: 'a',
      delayMs: 5,
      times: 2,
      match: { model: 'm' },
      finishReason: 'length',
      model: 'reported',
      chunking: { textChunkSize: 1, argumentsChunkSize: 6, interleaveToolCalls: true },
    });
    expect(built.turns[1]).toMatchObject({ text: 'b', delayMs: 0, times: 1 });
  });

  it('attaches a fault to the current turn and starts a new turn after it', () => {
    const built = script()
      .fault(faults.rateLimited(2))
      .text('partial')
      .fault(faults.disconnect(3))
      .fault(faults.serverError())
      .text('ok')
      .build();
    expect(built.turns.map((t) => [t.text, t.fault?.kind])).toEqual([
      [undefined, 'http'],
      ['partial', 'disconnect'],
      [undefined, 'http'],
      ['ok', undefined],
    ]);
  });

  it('next() and turn() start new turns', () => {
    const built = script()
      .toolCall('a')
      .next()
      .toolCall('b')
      .turn((t) => t.text('x').reasoning('after text is fine in turn()'))
      .usage({ outputTokens: 3 })
      .text('separate')
      .turn({ text: 'data' })
      .models('m1')
      .build();
    expect(built.turns.map((t) => t.toolCalls.map((c) => c.name).join() || t.text)).toEqual([
      'a',
      'b',
      'x',
      'separate',
      'data',
    ]);
    expect(built.turns[2]?.reasoning).toBe('after text is fine in turn()');
    expect(built.turns[2]?.usage?.outputTokens).toBe(3);
    expect(built.models).toEqual(['m1']);
  });

  it('toJSON is plain data that parses to the same script', () => {
    const builder = script().text('hi').fault(faults.stall(1));
    const json = JSON.parse(JSON.stringify(builder));
    expect(ScriptSchema.parse(json)).toEqual(builder.build());
  });

  it('build() names the offending turn and field', () => {
    expect(() => script().text('ok').next().text('x').times(0).build()).toThrow(
      /turns\[1\]\.times/,
    );
  });
});

describe('faults presets', () => {
  it('all parse as faults', () => {
    const all = [
      faults.rateLimited(3),
      faults.unauthorized(),
      faults.usageLimit(),
      faults.insufficientCredits(),
      faults.modelNotFound('m'),
      faults.payloadTooLarge(),
      faults.contextLength(),
      faults.badRequest('b'),
      faults.serverError(),
      faults.unavailable(),
      faults.overloaded(),
      faults.temporarilyOverloaded(),
      faults.stall(2),
      faults.disconnect(1),
      faults.htmlErrorPage(504),
      faults.nonJson200(),
      faults.malformedSse(),
      faults.emptyBody(),
    ];
    for (const fault of all) expect(FaultSchema.parse(fault)).toEqual(fault);
  });

  it('carry the statuses, headers and wording the issue lists', () => {
    expect(faults.rateLimited(3)).toMatchObject({ status: 429, headers: { 'retry-after': '3' } });
    expect(faults.usageLimit()).toMatchObject({
      status: 402,
      message: expect.stringMatching(/usage limit reached.*try again in 5 minutes/i),
    });
    expect(faults.insufficientCredits().message).toMatch(/insufficient credits/i);
    expect(faults.overloaded()).toMatchObject({ status: 529, errorType: 'overloaded_error' });
    expect(faults.temporarilyOverloaded()).toMatchObject({
      status: 429,
      message: expect.stringContaining('temporarily overloaded'),
    });
    expect(faults.contextLength(100, 150)).toMatchObject({
      status: 400,
      message: expect.stringContaining("This model's maximum context length is 100 tokens"),
      byProtocol: {
        'openai-chat': { errorCode: 'context_length_exceeded' },
        'anthropic-messages': { message: 'prompt is too long: 150 tokens > 100 maximum' },
      },
    });
    expect(faults.htmlErrorPage(504)).toMatchObject({
      status: 504,
      body: expect.stringContaining('504 Gateway Time-out'),
    });
  });

  it('malformedSse can take any protocol', () => {
    for (const protocol of ['openai-chat', 'openai-responses', 'anthropic-messages'] as const) {
      const fault = faults.malformedSse(protocol);
      if (fault.kind !== 'raw') throw new Error('expected raw');
      const bad = fault.body
        .split('\n')
        .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
        .filter((line) => {
          try {
            JSON.parse(line.slice(6));
            return false;
          } catch {
            return true;
          }
        });
      expect(bad).toHaveLength(1);
    }
  });
});
