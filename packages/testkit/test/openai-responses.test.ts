/** The OpenAI Responses encoder on its own: body shapes, event order, chunking, ids, usage. */
import { describe, expect, it } from 'vitest';
import type { SseFrame } from '../src/protocols/encoder.ts';
import { openaiResponsesEncoder as encoder } from '../src/protocols/openai-responses.ts';
import { type ScriptTurnInput, ScriptTurnSchema } from '../src/script.ts';
import { EVERY_USAGE_FIELD, fixedContext } from './support/encoder-fixtures.ts';

const context = fixedContext('gpt-test', 'r1');

type Json = Record<string, unknown> & {
  output: Array<Record<string, unknown>>;
  usage: Record<string, unknown> | null;
};

function body(input: ScriptTurnInput): Json {
  return encoder.json(ScriptTurnSchema.parse(input), context) as Json;
}

function frames(input: ScriptTurnInput): Array<SseFrame & { data: Record<string, unknown> }> {
  return encoder.stream(ScriptTurnSchema.parse(input), context) as Array<
    SseFrame & { data: Record<string, unknown> }
  >;
}

function ofType(list: ReturnType<typeof frames>, type: string): Array<Record<string, unknown>> {
  return list.filter((frame) => frame.data.type === type).map((frame) => frame.data);
}

const richTurn: ScriptTurnInput = {
  reasoning: 'Think about it carefully.',
  text: 'Hello, world! How are you?',
  toolCalls: [
    { id: 'call_fixed', name: 'read_file', arguments: { path: '/tmp/a.txt', lines: 10 } },
    { name: 'broken', arguments: '{"x": [1, 2' },
  ],
  usage: EVERY_USAGE_FIELD,
  chunking: { textChunkSize: 5, argumentsChunkSize: 4 },
};

describe('openai-responses json', () => {
  it('answers a text turn with one completed message and no client-side output_text', () => {
    const response = body({ text: 'Hi there' });
    expect(response).toMatchObject({
      id: 'resp_r1',
      object: 'response',
      created_at: 1_700_000_000,
      status: 'completed',
      model: 'gpt-test',
      error: null,
      incomplete_details: null,
      tools: [],
      parallel_tool_calls: true,
    });
    expect(response).not.toHaveProperty('output_text');
    expect(response.output).toEqual([
      {
        type: 'message',
        id: 'msg_r1',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Hi there', annotations: [], logprobs: [] }],
      },
    ]);
  });

  it('orders reasoning, message and function calls, keeping scripted ids and raw arguments', () => {
    const output = body(richTurn).output;
    expect(output.map((item) => item.type)).toEqual([
      'reasoning',
      'message',
      'function_call',
      'function_call',
    ]);
    expect(output[0]).toEqual({
      type: 'reasoning',
      id: 'rs_r1',
      summary: [{ type: 'summary_text', text: 'Think about it carefully.' }],
    });
    expect(output[2]).toMatchObject({
      call_id: 'call_fixed',
      name: 'read_file',
      arguments: '{"path":"/tmp/a.txt","lines":10}',
      status: 'completed',
    });
    expect(output[3]).toMatchObject({ name: 'broken', arguments: '{"x": [1, 2' });
    expect(String(output[3]?.call_id)).toMatch(/^call_r1/);
    expect(String(output[3]?.id)).toMatch(/^fc_r1/);
    expect(output[2]?.id).not.toBe(output[3]?.id);
  });

  it('maps usage: input_tokens is the whole prompt, cache and reasoning are details', () => {
    expect(body(richTurn).usage).toEqual({
      input_tokens: 17,
      input_tokens_details: { cached_tokens: 5, cache_write_tokens: 2 },
      output_tokens: 7,
      output_tokens_details: { reasoning_tokens: 3 },
      total_tokens: 24,
    });
    expect(body({ text: 'x' }).usage).toMatchObject({ input_tokens: 0, total_tokens: 0 });
  });

  it('reports a length stop as incomplete with max_output_tokens, the last item unfinished', () => {
    const response = body({ text: 'cut off', finishReason: 'length' });
    expect(response.status).toBe('incomplete');
    expect(response.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(response.output[0]?.status).toBe('incomplete');
    const filtered = body({ text: 'no', finishReason: 'content_filter' });
    expect(filtered.incomplete_details).toEqual({ reason: 'content_filter' });
  });

  it('reports the scripted model over the requested one, and an empty message for an empty turn', () => {
    const response = body({ model: 'gpt-other' });
    expect(response.model).toBe('gpt-other');
    expect(response.output).toHaveLength(1);
    expect(response.output[0]).toMatchObject({ type: 'message', content: [{ text: '' }] });
  });
});

describe('openai-responses stream', () => {
  it('emits the full event sequence with event names equal to types and running sequence numbers', () => {
    const list = frames({ ...richTurn, toolCalls: richTurn.toolCalls?.slice(0, 1) });
    const types = list.map((frame) => frame.data.type);
    expect(list.map((frame) => frame.event)).toEqual(types);
    expect(list.map((frame) => frame.data.sequence_number)).toEqual(types.map((_, i) => i));
    const collapsed = types.filter((type, i) => type !== types[i - 1]);
    expect(collapsed).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
  });

  it('chunks text, reasoning and arguments by the scripted sizes and reassembles exactly', () => {
    const list = frames(richTurn);
    const text = ofType(list, 'response.output_text.delta').map((e) => String(e.delta));
    expect(text.join('')).toBe('Hello, world! How are you?');
    expect(text.every((piece) => piece.length <= 5)).toBe(true);
    expect(text).toHaveLength(Math.ceil(26 / 5));
    const reasoning = ofType(list, 'response.reasoning_summary_text.delta').map((e) => e.delta);
    expect(reasoning.join('')).toBe('Think about it carefully.');
    const args = ofType(list, 'response.function_call_arguments.delta');
    const second = args.filter((e) => e.output_index === 3).map((e) => String(e.delta));
    expect(second).toEqual(['{"x"', ': [1', ', 2']);
    const done = ofType(list, 'response.function_call_arguments.done');
    expect(done.map((e) => [e.name, e.arguments])).toEqual([
      ['read_file', '{"path":"/tmp/a.txt","lines":10}'],
      ['broken', '{"x": [1, 2'],
    ]);
  });

  it('uses the default chunk sizes (8 text, 6 arguments) and never splits a surrogate pair', () => {
    const list = frames({
      text: 'ab😀cdefghij',
      toolCalls: [{ name: 'f', arguments: 'abcdefghijk' }],
    });
    const text = ofType(list, 'response.output_text.delta').map((e) => e.delta);
    expect(text).toEqual(['ab😀cdefg', 'hij']);
    const args = ofType(list, 'response.function_call_arguments.delta').map((e) => e.delta);
    expect(args).toEqual(['abcdef', 'ghijk']);
  });

  it('starts items empty and in progress, and ends with the same response json() gives', () => {
    const list = frames(richTurn);
    const created = ofType(list, 'response.created')[0]?.response as Json;
    expect(created).toMatchObject({
      id: 'resp_r1',
      status: 'in_progress',
      output: [],
      usage: null,
    });
    const added = ofType(list, 'response.output_item.added').map((e) => e.item);
    expect(added[0]).toMatchObject({ type: 'reasoning', summary: [] });
    expect(added[1]).toMatchObject({ type: 'message', status: 'in_progress', content: [] });
    expect(added[2]).toMatchObject({ type: 'function_call', status: 'in_progress', arguments: '' });
    const completed = list.at(-1)?.data;
    expect(completed?.type).toBe('response.completed');
    expect(completed?.response).toEqual(body(richTurn));
    const itemsDone = ofType(list, 'response.output_item.done').map((e) => e.item);
    expect(itemsDone).toEqual(body(richTurn).output);
  });

  it('ends a length-stopped stream with response.incomplete and no [DONE]', () => {
    const list = frames({ text: 'partial', finishReason: 'length' });
    expect(list.at(-1)?.data).toMatchObject({
      type: 'response.incomplete',
      response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
    });
    // The Responses API, unlike Chat Completions, sends no `[DONE]`: every frame is an event.
    expect(list.every((frame) => typeof frame.data === 'object' && frame.event !== undefined)).toBe(
      true,
    );
  });
});

describe('openai-responses errors', () => {
  it('uses the OpenAI error shape with the scripted type and code', () => {
    expect(
      encoder.errorBody(400, 'too long', 'invalid_request_error', 'context_length_exceeded'),
    ).toEqual({
      error: {
        message: 'too long',
        type: 'invalid_request_error',
        param: null,
        code: 'context_length_exceeded',
      },
    });
  });

  it('derives a type from the status when none is scripted', () => {
    const server = encoder.errorBody(500, 'boom') as { error: Record<string, unknown> };
    expect(server.error).toMatchObject({ message: 'boom', type: 'server_error', param: null });
    const client = encoder.errorBody(404, 'no model') as { error: Record<string, unknown> };
    expect(client.error.type).toBe('invalid_request_error');
  });
});
