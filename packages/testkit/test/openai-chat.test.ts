/** The Chat Completions encoder on its own: exact JSON and chunk shapes for scripted turns. */
import { describe, expect, it } from 'vitest';
import type { EncodeContext } from '../src/protocols/encoder.ts';
import { openaiChatEncoder } from '../src/protocols/openai-chat.ts';
import { type ScriptTurnInput, ScriptTurnSchema } from '../src/script.ts';
import { EVERY_USAGE_FIELD, fixedContext } from './support/encoder-fixtures.ts';

const context = fixedContext('gpt-test', 'abc123', true);

function turn(input: ScriptTurnInput) {
  return ScriptTurnSchema.parse(input);
}

interface Chunk {
  id: string;
  object: string;
  model: string;
  choices: { index: number; delta: Record<string, unknown>; finish_reason: string | null }[];
  usage?: unknown;
}

function chunks(input: ScriptTurnInput, ctx: EncodeContext = context): (Chunk | string)[] {
  return openaiChatEncoder.stream(turn(input), ctx).map((frame) => {
    expect(frame.event).toBeUndefined();
    return frame.data as Chunk | string;
  });
}

function deltas(all: (Chunk | string)[]): Record<string, unknown>[] {
  return all.flatMap((c) => (typeof c === 'string' ? [] : c.choices.map((choice) => choice.delta)));
}

describe('openaiChatEncoder.json', () => {
  it('encodes text, reasoning and usage as a chat.completion', () => {
    const body = openaiChatEncoder.json(
      turn({
        text: 'Hi',
        reasoning: 'think',
        usage: EVERY_USAGE_FIELD,
      }),
      context,
    );
    expect(body).toEqual({
      id: 'chatcmpl-abc123',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'gpt-test',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Hi',
            refusal: null,
            annotations: [],
            reasoning_content: 'think',
          },
          logprobs: null,
          finish_reason: 'stop',
        },
      ],
      usage: {
        prompt_tokens: 17,
        completion_tokens: 7,
        total_tokens: 24,
        prompt_tokens_details: { cached_tokens: 5, audio_tokens: 0 },
        completion_tokens_details: {
          reasoning_tokens: 3,
          audio_tokens: 0,
          accepted_prediction_tokens: 0,
          rejected_prediction_tokens: 0,
        },
      },
      service_tier: 'default',
      system_fingerprint: 'fp_hermes_testkit',
    });
  });

  it('sends null content, tool_calls and finish_reason tool_calls when only tools are called', () => {
    const body = openaiChatEncoder.json(
      turn({
        toolCalls: [
          { name: 'read_file', arguments: { path: 'a' } },
          { id: 'call_given', name: 'raw', arguments: '{"broken":' },
        ],
      }),
      context,
    ) as { choices: { message: Record<string, unknown>; finish_reason: string }[] };
    const choice = body.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBeNull();
    expect(choice?.message).not.toHaveProperty('reasoning_content');
    const calls = choice?.message.tool_calls as { id: string }[];
    expect(calls).toEqual([
      {
        id: expect.stringMatching(/^call_/),
        type: 'function',
        function: { name: 'read_file', arguments: '{"path":"a"}' },
      },
      { id: 'call_given', type: 'function', function: { name: 'raw', arguments: '{"broken":' } },
    ]);
  });

  it('reports the turn model and finish reason overrides, and empty content for an empty turn', () => {
    const body = openaiChatEncoder.json(
      turn({ model: 'other', finishReason: 'length' }),
      context,
    ) as {
      model: string;
      choices: { message: { content: unknown }; finish_reason: string }[];
    };
    expect(body.model).toBe('other');
    expect(body.choices[0]?.finish_reason).toBe('length');
    expect(body.choices[0]?.message.content).toBe('');
  });
});

describe('openaiChatEncoder.stream', () => {
  it('streams role, reasoning, content, finish, usage, [DONE] in that order', () => {
    const all = chunks({
      reasoning: 'abcdef',
      text: 'Hello world',
      usage: { inputTokens: 3, outputTokens: 4 },
      chunking: { textChunkSize: 4 },
    });
    expect(all.at(-1)).toBe('[DONE]');
    const objects = all.slice(0, -1) as Chunk[];
    for (const c of objects) {
      expect(c.object).toBe('chat.completion.chunk');
      expect(c.id).toBe('chatcmpl-abc123');
    }
    expect(deltas(all)).toEqual([
      { role: 'assistant', content: '', refusal: null },
      { reasoning_content: 'abcd' },
      { reasoning_content: 'ef' },
      { content: 'Hell' },
      { content: 'o wo' },
      { content: 'rld' },
      {},
    ]);
    const finish = objects.at(-2);
    expect(finish?.choices[0]?.finish_reason).toBe('stop');
    expect(finish?.usage).toBeNull();
    const usage = objects.at(-1);
    expect(usage?.choices).toEqual([]);
    expect(usage?.usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 });
  });

  it('omits the usage chunk and the usage fields without include_usage', () => {
    const all = chunks({ text: 'x' }, { ...context, includeUsage: false });
    const objects = all.slice(0, -1) as Chunk[];
    expect(objects.every((c) => !('usage' in c))).toBe(true);
    expect(objects.every((c) => c.choices.length === 1)).toBe(true);
  });

  it('splits tool calls: header with id, type, name and empty arguments, then index-only fragments', () => {
    const all = chunks({
      toolCalls: [{ id: 'call_1', name: 'f', arguments: '{"a":1}' }],
      chunking: { argumentsChunkSize: 3 },
    });
    expect(deltas(all)).toEqual([
      { role: 'assistant', content: null, refusal: null },
      {
        tool_calls: [
          { index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '' } },
        ],
      },
      { tool_calls: [{ index: 0, function: { arguments: '{"a' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '":1' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '}' } }] },
      {},
    ]);
    const finish = all.at(-3) as Chunk;
    expect(finish.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('interleaves several calls by index, or sends them one after another', () => {
    const calls = [
      { name: 'a', arguments: '1234' },
      { name: 'b', arguments: '5678' },
    ];
    const indexes = (interleave: boolean) =>
      deltas(
        chunks({
          toolCalls: calls,
          chunking: { argumentsChunkSize: 2, interleaveToolCalls: interleave },
        }),
      )
        .flatMap((d) => (d.tool_calls as { index: number }[] | undefined) ?? [])
        .map((call) => call.index);
    expect(indexes(true)).toEqual([0, 1, 0, 1, 0, 1]);
    expect(indexes(false)).toEqual([0, 0, 0, 1, 1, 1]);
  });

  it('gives generated call ids that are the same in JSON and stream of one response and unique across calls', () => {
    const t = turn({ toolCalls: [{ name: 'a' }, { name: 'b' }] });
    const json = openaiChatEncoder.json(t, context) as {
      choices: { message: { tool_calls: { id: string }[] } }[];
    };
    const ids = json.choices[0]?.message.tool_calls.map((c) => c.id) ?? [];
    const streamed = deltas(
      openaiChatEncoder.stream(t, context).map((f) => f.data as Chunk | string),
    )
      .flatMap((d) => (d.tool_calls as { id?: string }[] | undefined) ?? [])
      .flatMap((c) => (c.id ? [c.id] : []));
    expect(streamed).toEqual(ids);
    expect(new Set(ids).size).toBe(2);
    expect(ids.every((id) => id.startsWith('call_'))).toBe(true);
  });

  it('never splits a surrogate pair', () => {
    const text = '😀😀😀';
    const pieces = deltas(chunks({ text, chunking: { textChunkSize: 1 } }))
      .map((d) => d.content)
      .filter((c): c is string => typeof c === 'string' && c !== '');
    expect(pieces).toEqual(['😀', '😀', '😀']);
  });
});

describe('openaiChatEncoder.errorBody', () => {
  it('has OpenAI error shape with a per-status default type', () => {
    expect(openaiChatEncoder.errorBody(400, 'bad', undefined, 'context_length_exceeded')).toEqual({
      error: {
        message: 'bad',
        type: 'invalid_request_error',
        param: null,
        code: 'context_length_exceeded',
      },
    });
    expect(openaiChatEncoder.errorBody(503, 'down')).toEqual({
      error: { message: 'down', type: 'server_error', param: null, code: null },
    });
    expect(openaiChatEncoder.errorBody(429, 'slow', 'tokens')).toMatchObject({
      error: { type: 'tokens' },
    });
  });
});
