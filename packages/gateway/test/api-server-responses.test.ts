import { afterEach, describe, expect, it } from 'vitest';
import { ResponseStore } from '../src/adapters/api-server/response-store.js';
import { refuse, reply } from './support/api-server-fake-pipeline.js';
import { type ApiHarness, startApiServer } from './support/api-server-harness.js';

let harness: ApiHarness;
afterEach(async () => {
  await harness?.close();
});

const tool = { name: 'terminal', arguments: '{"command":"ls"}', preview: 'README.md src/' };

describe('api_server: the Responses API with the official openai client', () => {
  it('answers, stores, and continues the same session and chat with previous_response_id', async () => {
    harness = await startApiServer();
    harness.pipeline.queue(
      reply('Your project has a README.', { sessionId: 'sess-A', tool }),
      reply('It says hello.'),
    );
    const first = await harness.client.responses.create({
      model: 'hermes-agent',
      input: 'What files are in my project?',
      instructions: 'You are a helpful coding assistant.',
    });
    expect(first.id).toMatch(/^resp_/);
    expect(first.status).toBe('completed');
    expect(first.output_text).toBe('Your project has a README.');
    expect(first.output.map((item) => item.type)).toEqual([
      'function_call',
      'function_call_output',
      'message',
    ]);
    expect(first.output[0]).toMatchObject({
      name: 'terminal',
      call_id: 'call-terminal',
      status: 'completed',
    });
    expect(first.usage).toMatchObject({ input_tokens: 10, output_tokens: 5, total_tokens: 15 });
    const [firstIn] = harness.pipeline.received;
    expect(firstIn?.context?.history).toEqual([
      { role: 'system', content: 'You are a helpful coding assistant.' },
    ]);
    expect(firstIn?.message).toMatchObject({
      chatId: first.id,
      text: 'What files are in my project?',
    });

    const second = await harness.client.responses.create({
      model: 'hermes-agent',
      input: 'Now show me the README',
      previous_response_id: first.id,
    });
    expect(second.previous_response_id).toBe(first.id);
    expect(second.output_text).toBe('It says hello.');
    const secondIn = harness.pipeline.received[1];
    expect(secondIn?.context?.sessionId).toBe('sess-A');
    expect(secondIn?.context?.history).toBeUndefined();
    expect(secondIn?.message.chatId).toBe(first.id);

    const fetched = await harness.client.responses.retrieve(first.id);
    expect(fetched.output_text).toBe('Your project has a README.');
  });

  it('refuses an unknown previous_response_id with a 400 naming the parameter', async () => {
    harness = await startApiServer();
    const response = await harness.request('/v1/responses', {
      json: { model: 'm', input: 'hi', previous_response_id: 'resp_missing' },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        message: "Previous response with id 'resp_missing' not found.",
        type: 'invalid_request_error',
        param: 'previous_response_id',
        code: 'previous_response_not_found',
      },
    });
    expect(harness.pipeline.received).toHaveLength(0);
  });

  it("streams OpenAI's event names, and the SDK's final response matches the stored one", async () => {
    harness = await startApiServer();
    harness.pipeline.queue(reply('Streamed answer.', { before: 'Checking. ', tool }));
    const stream = harness.client.responses.stream({ model: 'hermes-agent', input: 'go' });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    const final = await stream.finalResponse();
    expect(types[0]).toBe('response.created');
    expect(types[1]).toBe('response.in_progress');
    expect(types.at(-1)).toBe('response.completed');
    expect(types).toContain('response.output_text.delta');
    expect(types).toContain('response.output_item.added');
    expect(types).toContain('response.function_call_arguments.done');
    expect(final.output_text).toBe('Checking. Streamed answer.');
    expect(final.output.map((item) => item.type)).toEqual([
      'message',
      'function_call',
      'function_call_output',
      'message',
    ]);
    const stored = await harness.client.responses.retrieve(final.id);
    // The SDK adds its parse fields (`parsed`, `parsed_arguments`) to what it streamed.
    expect(final.output).toMatchObject(stored.output);
  });

  it('does not store a response with store: false', async () => {
    harness = await startApiServer();
    const answer = await harness.client.responses.create({ model: 'm', input: 'hi', store: false });
    const response = await harness.request(`/v1/responses/${answer.id}`);
    expect(response.status).toBe(404);
  });

  it('deletes a stored response, after which it is gone', async () => {
    harness = await startApiServer();
    const answer = await harness.client.responses.create({ model: 'm', input: 'hi' });
    await harness.client.responses.delete(answer.id);
    const again = await harness.request(`/v1/responses/${answer.id}`, { method: 'DELETE' });
    expect(again.status).toBe(404);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe(
      'response_not_found',
    );
  });

  it('turns items input into history and the last user message', async () => {
    harness = await startApiServer();
    await harness.client.responses.create({
      model: 'm',
      input: [
        { role: 'user', content: 'list files' },
        { type: 'function_call', call_id: 'c1', name: 'terminal', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c1', output: 'a b' },
        { role: 'assistant', content: 'a and b' },
        { role: 'user', content: [{ type: 'input_text', text: 'and c?' }] },
      ],
    });
    const [delivery] = harness.pipeline.received;
    expect(delivery?.message.text).toBe('and c?');
    expect(delivery?.context?.history).toEqual([
      { role: 'user', content: 'list files' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'terminal', arguments: '{}' } },
        ],
      },
      { role: 'tool', content: 'a b', tool_call_id: 'c1' },
      { role: 'assistant', content: 'a and b' },
    ]);
  });

  it('reports a refused message as the error status', async () => {
    harness = await startApiServer();
    harness.pipeline.queue(refuse('gateway.busy', 'Busy.'));
    const response = await harness.request('/v1/responses', { json: { model: 'm', input: 'hi' } });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('5');
  });
});

describe('ResponseStore', () => {
  it('keeps the 100 most recently used responses', () => {
    const store = new ResponseStore();
    const entry = (id: string) => ({ id, sessionId: 's', chatId: 'c', userId: 'u', body: {} });
    for (let n = 0; n < 100; n += 1) store.put(entry(`r${n}`));
    expect(store.get('r0')).toBeDefined(); // used: now the most recent
    store.put(entry('r100'));
    expect(store.size).toBe(100);
    expect(store.get('r1')).toBeUndefined(); // least recently used went first
    expect(store.get('r0')).toBeDefined();
    expect(store.get('r100')).toBeDefined();
  });
});
