import { afterEach, describe, expect, it } from 'vitest';
import { refuse, reply } from './support/api-server-fake-pipeline.js';
import {
  type ApiHarness,
  collectSse,
  readSse,
  startApiServer,
} from './support/api-server-harness.js';

let harness: ApiHarness;
afterEach(async () => {
  await harness?.close();
});

const tool = { name: 'read_file', arguments: '{"path":"a.txt"}', preview: 'hello from a.txt' };

describe('api_server: POST /v1/chat/completions with the official openai client', () => {
  it('answers JSON with the turn text, usage and the new session id in X-Hermes-Session-Id', async () => {
    harness = await startApiServer();
    harness.pipeline.queue(
      reply('Paris.', { usage: { inputTokens: 7, cacheReadTokens: 3, outputTokens: 2 } }),
    );
    const { data, response } = await harness.client.chat.completions
      .create({
        model: 'whatever-the-client-says',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Capital of France?' },
          { role: 'assistant', content: 'Paris.' },
          { role: 'user', content: 'And of Italy?' },
        ],
        user: 'alice',
      })
      .withResponse();

    expect(data.object).toBe('chat.completion');
    expect(data.id).toMatch(/^chatcmpl-/);
    expect(data.model).toBe('hermes-agent');
    expect(data.choices[0]?.message).toMatchObject({ role: 'assistant', content: 'Paris.' });
    expect(data.choices[0]?.finish_reason).toBe('stop');
    expect(data.usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 });
    expect(data.usage?.prompt_tokens_details?.cached_tokens).toBe(3);

    const [delivery] = harness.pipeline.received;
    expect(delivery?.message).toMatchObject({
      platform: 'api_server',
      chatId: data.id,
      userId: 'alice',
      messageId: data.id,
      text: 'And of Italy?',
      isDirect: true,
    });
    // No session header: a new session seeded with everything before the last user message.
    expect(delivery?.context?.sessionId).toBeUndefined();
    expect(delivery?.context?.history).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Capital of France?' },
      { role: 'assistant', content: 'Paris.' },
    ]);
    expect(delivery?.context?.sink).toBeDefined();
    expect(delivery?.context?.signal?.aborted).toBe(false);
    expect(response.headers.get('x-hermes-session-id')).toBe(`sess-${data.id}`);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('continues the session named by X-Hermes-Session-Id, without replaying the client history', async () => {
    harness = await startApiServer();
    const { data, response } = await harness.client.chat.completions
      .create(
        {
          model: 'hermes-agent',
          messages: [
            { role: 'user', content: 'earlier' },
            { role: 'assistant', content: 'earlier answer' },
            { role: 'user', content: 'next' },
          ],
        },
        { headers: { 'X-Hermes-Session-Id': 'sess-stored-42' } },
      )
      .withResponse();
    const [delivery] = harness.pipeline.received;
    expect(delivery?.context?.sessionId).toBe('sess-stored-42');
    expect(delivery?.context?.history).toBeUndefined();
    expect(delivery?.message.chatId).toBe('sess-stored-42');
    expect(delivery?.message.userId).toBe('api');
    expect(response.headers.get('x-hermes-session-id')).toBe('sess-stored-42');
    expect(data.choices[0]?.message.content).toBe('ok');
  });

  it('streams chunks with tool progress events the client skips, usage last, then [DONE]', async () => {
    harness = await startApiServer();
    harness.pipeline.queue(reply('The file says hello.', { before: 'Let me look. ', tool }));
    const { data: stream, response } = await harness.client.chat.completions
      .create({
        model: 'hermes-agent',
        messages: [{ role: 'user', content: 'What is in a.txt?' }],
        stream: true,
        stream_options: { include_usage: true },
      })
      .withResponse();
    let text = '';
    const chunks = [];
    for await (const chunk of stream) {
      chunks.push(chunk);
      // The usual client loop: progress events must not break it.
      text += chunk.choices[0]?.delta?.content ?? '';
    }
    expect(text).toBe('Let me look. The file says hello.');
    expect(response.headers.get('x-hermes-session-id')).toMatch(/^sess-chatcmpl-/);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const real = chunks.filter((chunk) => chunk.object === 'chat.completion.chunk');
    expect(real[0]?.choices[0]?.delta).toMatchObject({ role: 'assistant' });
    expect(real.at(-2)?.choices[0]?.finish_reason).toBe('stop');
    expect(real.at(-1)?.choices).toEqual([]);
    expect(real.at(-1)?.usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 5 });
    expect(real.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
    const progress = chunks.filter(
      (chunk) => (chunk as { type?: string }).type === 'hermes.tool.progress',
    );
    expect(progress.map((p) => (p as unknown as { status: string }).status)).toEqual([
      'started',
      'running',
      'completed',
    ]);
    expect(progress[0]).toMatchObject({
      tool: 'read_file',
      tool_call_id: 'call-read_file',
      choices: [],
    });
  });

  it('sends the progress frames as `event: hermes.tool.progress`, between the content chunks', async () => {
    harness = await startApiServer();
    harness.pipeline.queue(reply('Done.', { before: 'Looking. ', tool }));
    const response = await harness.request('/v1/chat/completions', {
      json: { model: 'm', messages: [{ role: 'user', content: 'go' }], stream: true },
    });
    const events = await collectSse(readSse(response));
    const names = events.map((event) => event.event ?? 'chunk');
    const firstTool = names.indexOf('hermes.tool.progress');
    expect(firstTool).toBeGreaterThan(0);
    expect(names.slice(firstTool, firstTool + 3)).toEqual(Array(3).fill('hermes.tool.progress'));
    expect(names.lastIndexOf('hermes.tool.progress')).toBeLessThan(names.length - 3);
    expect(events.at(-1)?.data).toBe('[DONE]');
  });

  it('opens a stream whose turn is slow to start, then names the session in a frame', async () => {
    harness = await startApiServer({}, { streamHeaderWaitMs: 20 });
    let start = () => {};
    const started = new Promise<void>((resolve) => {
      start = resolve;
    });
    harness.pipeline.queue(async (delivery, pipeline) => {
      await started;
      await reply('Late.', { sessionId: 'sess-late' })(delivery, pipeline);
    });
    const response = await harness.request('/v1/chat/completions', {
      json: { model: 'm', messages: [{ role: 'user', content: 'slow' }], stream: true },
    });
    // The headers came without waiting for the turn, so they cannot name its session.
    expect(response.status).toBe(200);
    expect(response.headers.get('x-hermes-session-id')).toBeNull();
    start();
    const events = await collectSse(readSse(response));
    const session = events.find((event) => event.event === 'hermes.session');
    expect(JSON.parse(session?.data ?? '{}')).toMatchObject({
      session_id: 'sess-late',
      choices: [],
    });
    expect(events.at(-1)?.data).toBe('[DONE]');
  });

  it('accumulates into a final completion with the SDK stream helper', async () => {
    harness = await startApiServer();
    harness.pipeline.queue(reply('Helper works.', { tool }));
    const stream = harness.client.chat.completions.stream({
      model: 'hermes-agent',
      messages: [{ role: 'user', content: 'hi' }],
    });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe('Helper works.');
    expect(final.choices[0]?.finish_reason).toBe('stop');
    expect(Object.keys(final)).not.toContain('tool_call_id');
  });

  it('answers a turn that produced only a notice with the notice', async () => {
    harness = await startApiServer();
    harness.pipeline.queue(reply('', { notices: ['Session reset after 24 h idle.'] }));
    const data = await harness.client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(data.choices[0]?.message.content).toBe('Session reset after 24 h idle.');
  });

  it('turns a refused message into an error status, before or during a stream', async () => {
    harness = await startApiServer();
    harness.pipeline.queue(refuse('gateway.shutting_down', 'The gateway is shutting down.'));
    const error = await harness.client.chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 503, code: 'gateway.shutting_down' });

    harness.pipeline.queue(refuse('gateway.not_allowed', 'No.'));
    const json = await harness.request('/v1/chat/completions', {
      json: { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(json.status).toBe(403);
    expect(await json.json()).toEqual({
      error: { message: 'No.', type: 'permission_error', param: null, code: 'gateway.not_allowed' },
    });
  });

  it('reports a handler that throws as a 500 and keeps serving', async () => {
    let calls = 0;
    harness = await startApiServer(
      {},
      {
        handler: (message, context) => {
          calls += 1;
          if (calls === 1) throw new Error('boom');
          context?.sink?.finish({
            sessionId: 's',
            text: `second: ${message.text}`,
            exitReason: 'completed',
            failed: false,
            usage: {
              inputTokens: 0,
              outputTokens: 0,
              cacheReadTokens: 0,
              cacheWriteTokens: 0,
              reasoningTokens: 0,
            },
            model: 'm',
          });
        },
      },
    );
    const first = await harness.request('/v1/chat/completions', {
      json: { model: 'm', messages: [{ role: 'user', content: 'one' }] },
    });
    expect(first.status).toBe(500);
    expect(((await first.json()) as { error: { code: string } }).error.code).toBe(
      'gateway.handler_failed',
    );
    const second = await harness.client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'two' }],
    });
    expect(second.choices[0]?.message.content).toBe('second: two');
  });
});
