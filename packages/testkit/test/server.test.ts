/** The scripted server over real HTTP: routing, recording, matching, `times`, exhaustion, models. */
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { script } from '../src/builder.ts';
import type { ScriptTurnInput } from '../src/script.ts';
import { type ScriptedServer, type ScriptSource, startScriptedServer } from '../src/server.ts';
import { chatBody, postJson, sseData } from './support/http-helpers.ts';
import { useScriptedServer } from './support/scripted-server.ts';

const server = useScriptedServer();

function start(source: ScriptSource): Promise<ScriptedServer> {
  return server.start(source);
}

async function chatText(s: ScriptedServer, text: string, extra: Record<string, unknown> = {}) {
  const response = await postJson(`${s.url}/v1/chat/completions`, chatBody(text, extra));
  const body = (await response.json()) as {
    choices?: { message: { content: string } }[];
    error?: { message: string; type: string };
  };
  return { status: response.status, body, content: body.choices?.[0]?.message.content };
}

describe('startScriptedServer', () => {
  it('listens on 127.0.0.1 on a free port and gives SDK base URLs', async () => {
    const s = await start({ turns: [] });
    expect(s.url).toBe(`http://127.0.0.1:${s.port}`);
    expect(s.port).toBeGreaterThan(0);
    expect(s.baseUrl('openai-chat')).toBe(`${s.url}/v1`);
    expect(s.baseUrl('openai-responses')).toBe(`${s.url}/v1`);
    expect(s.baseUrl('anthropic-messages')).toBe(s.url);
  });

  it('rejects an invalid script naming the offending path', async () => {
    await expect(
      startScriptedServer({ turns: [{ fault: { kind: 'http', status: 200 } }] } as never),
    ).rejects.toThrow(/turns\[0\]\.fault\.status/);
  });

  it('accepts a builder', async () => {
    const s = await start(script().text('from builder'));
    expect((await chatText(s, 'hi')).content).toBe('from builder');
  });
});

describe('routing', () => {
  it('answers chat completions as JSON and as SSE', async () => {
    const s = await start({ turns: [{ text: 'one' }, { text: 'two' }] });
    expect((await chatText(s, 'hi')).content).toBe('one');
    const response = await postJson(
      `${s.url}/v1/chat/completions`,
      chatBody('hi', { stream: true }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    const data = sseData(await response.text());
    expect(data.at(-1)).toBe('[DONE]');
    const text = data
      .flatMap((d) =>
        typeof d === 'string' ? [] : (d as { choices: { delta: { content?: string } }[] }).choices,
      )
      .map((c) => c.delta.content ?? '')
      .join('');
    expect(text).toBe('two');
  });

  it('routes /v1/responses and /v1/messages to their protocols', async () => {
    const s = await start({
      turns: [
        { text: 'responses', match: { protocol: 'openai-responses' } },
        { text: 'messages', match: { protocol: 'anthropic-messages' } },
      ],
    });
    const messages = await postJson(`${s.url}/v1/messages`, {
      model: 'claude-test',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(messages.status).toBe(200);
    expect(JSON.stringify(await messages.json())).toContain('messages');
    const responses = await postJson(`${s.url}/v1/responses`, { model: 'gpt-test', input: 'hi' });
    expect(responses.status).toBe(200);
    expect(JSON.stringify(await responses.json())).toContain('responses');
    expect(s.requests.map((r) => [r.protocol, r.turnIndex])).toEqual([
      ['anthropic-messages', 1],
      ['openai-responses', 0],
    ]);
  });

  it('lists models in the OpenAI shape, or Anthropic shape when anthropic-version is sent', async () => {
    const s = await start(script().models('m-1', 'm-2'));
    const openai = await (await fetch(`${s.url}/v1/models`)).json();
    expect(openai).toEqual({
      object: 'list',
      data: [
        { id: 'm-1', object: 'model', created: expect.any(Number), owned_by: 'hermes-testkit' },
        { id: 'm-2', object: 'model', created: expect.any(Number), owned_by: 'hermes-testkit' },
      ],
    });
    const anthropic = await (
      await fetch(`${s.url}/v1/models`, { headers: { 'anthropic-version': '2023-06-01' } })
    ).json();
    expect(anthropic).toEqual({
      data: [
        {
          type: 'model',
          id: 'm-1',
          display_name: 'm-1',
          created_at: expect.stringMatching(/^\d{4}-/),
        },
        {
          type: 'model',
          id: 'm-2',
          display_name: 'm-2',
          created_at: expect.stringMatching(/^\d{4}-/),
        },
      ],
      has_more: false,
      first_id: 'm-1',
      last_id: 'm-2',
    });
    expect(s.remaining()).toBe(0);
  });

  it('lists models to the official Anthropic client', async () => {
    const s = await start(script().models('claude-a', 'claude-b'));
    const client = new Anthropic({
      baseURL: s.baseUrl('anthropic-messages'),
      apiKey: 'test',
      maxRetries: 0,
    });
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toEqual(['claude-a', 'claude-b']);
    expect(s.requests[0]?.headers['anthropic-version']).toBeDefined();
  });

  it('answers an unknown route with 404 naming the served routes', async () => {
    const s = await start({ turns: [{ text: 'x' }] });
    const response = await postJson(`${s.url}/v1/completions`, {});
    expect(response.status).toBe(404);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toContain('/v1/chat/completions');
    expect(s.remaining()).toBe(1);
  });

  it('answers a body that is not JSON with 400 in the protocol error shape', async () => {
    const s = await start({ turns: [{ text: 'x' }] });
    const chat = await postJson(`${s.url}/v1/chat/completions`, '{not json');
    expect(chat.status).toBe(400);
    expect(await chat.json()).toMatchObject({
      error: {
        type: 'invalid_request_error',
        param: null,
        message: expect.stringContaining('JSON'),
      },
    });
    const anthropic = await postJson(`${s.url}/v1/messages`, '[1,');
    expect(anthropic.status).toBe(400);
    expect(JSON.stringify(await anthropic.json())).toContain('JSON');
    expect(s.remaining()).toBe(1);
    expect(s.requests.map((r) => r.rawBody)).toEqual(['{not json', '[1,']);
  });

  it('answers a body over maxBodyBytes with 413 in the protocol error shape', async () => {
    const s = await server.start({ turns: [{ text: 'x' }] }, { maxBodyBytes: 1000 });
    const response = await postJson(`${s.url}/v1/chat/completions`, chatBody('y'.repeat(5000)));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({
      error: { message: expect.stringContaining('1000 bytes') },
    });
    expect(s.remaining()).toBe(1);
    expect(s.requests).toHaveLength(1);
  });

  it('answers a field of the wrong type with 400 naming the field', async () => {
    const s = await start({ turns: [{ text: 'x' }] });
    const response = await postJson(
      `${s.url}/v1/chat/completions`,
      chatBody('hi', { stream: 'yes' }),
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toContain('stream');
  });
});

describe('recording', () => {
  it('records method, path, lower-cased headers, parsed body, protocol, turn and time', async () => {
    const s = await start({ turns: [{ text: 'x' }] });
    const before = Date.now();
    await postJson(
      `${s.url}/v1/chat/completions?api-version=1`,
      chatBody('hello', { stream: false }),
      {
        Authorization: 'Bearer sk-test',
        'X-Custom': 'yes',
      },
    );
    const [request] = s.requests;
    expect(request).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      protocol: 'openai-chat',
      model: 'gpt-test',
      stream: false,
      turnIndex: 0,
      body: { model: 'gpt-test', messages: [{ role: 'user', content: 'hello' }], stream: false },
    });
    expect(request?.headers.authorization).toBe('Bearer sk-test');
    expect(request?.headers['x-custom']).toBe('yes');
    expect(request?.time).toBeGreaterThanOrEqual(before);
  });
});

describe('matching', () => {
  it('answers with the first queued turn whose matcher matches, leaving the others queued', async () => {
    const turns: ScriptTurnInput[] = [
      { text: 'for streams', match: { stream: true } },
      { text: 'for model b', match: { model: 'b' } },
      { text: 'about weather', match: { lastUserIncludes: 'weather' } },
      { text: 'anything' },
    ];
    const s = await start({ turns });
    expect((await chatText(s, 'what is the weather?')).content).toBe('about weather');
    expect((await chatText(s, 'hello', { model: 'b' })).content).toBe('for model b');
    expect((await chatText(s, 'what is the weather?')).content).toBe('anything');
    expect(s.remaining()).toBe(1);
    expect(s.requests.map((r) => r.turnIndex)).toEqual([2, 1, 3]);
  });

  it('matches the last user text in chat, Responses and Anthropic request shapes', async () => {
    const match = { lastUserIncludes: 'needle' };
    const s = await start({
      turns: [
        { text: '1', match },
        { text: '2', match },
        { text: '3', match },
        { text: '4', match },
      ],
    });
    const ok = async (path: string, body: unknown) => {
      const response = await postJson(`${s.url}${path}`, body);
      expect(response.status).toBe(200);
    };
    await ok('/v1/chat/completions', {
      model: 'm',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'find the needle' }] },
        { role: 'assistant', content: null, tool_calls: [] },
        { role: 'tool', tool_call_id: 'c', content: 'result' },
      ],
    });
    await ok('/v1/responses', {
      model: 'm',
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'a needle' }] }],
    });
    await ok('/v1/responses', { model: 'm', input: 'needle as a string' });
    await ok('/v1/messages', {
      model: 'm',
      max_tokens: 5,
      messages: [
        { role: 'user', content: 'needle here' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'out' }] },
      ],
    });
    expect(s.remaining()).toBe(0);
  });

  it('does not match when the last user text lacks the phrase', async () => {
    const s = await start({
      turns: [{ text: 'x', match: { lastUserIncludes: 'needle' } }],
    });
    const body = chatBody('first needle');
    (body.messages as unknown[]).push({ role: 'user', content: 'no match now' });
    const response = await postJson(`${s.url}/v1/chat/completions`, body);
    expect(response.status).toBe(500);
  });

  it('matches the system prompt of chat, Responses, Anthropic, Bedrock and Gemini requests, before earlier unmatched turns', async () => {
    const match = { systemIncludes: 'short title' };
    const s = await start({
      turns: [
        { text: 'T1', match },
        { text: 'T2', match },
        { text: 'T3', match },
        { text: 'T4', match },
        { text: 'T5', match },
        { text: 'T6', match },
        { text: 'the conversation' },
      ],
    });
    // A conversation request skips the title turns queued before its own.
    expect((await chatText(s, 'hello')).content).toBe('the conversation');
    const ok = async (path: string, body: unknown) => {
      const response = await postJson(`${s.url}${path}`, body);
      expect(response.status).toBe(200);
    };
    await ok('/v1/chat/completions', {
      model: 'm',
      messages: [
        { role: 'system', content: 'Write a short title.' },
        { role: 'user', content: 'User: hi' },
      ],
    });
    await ok('/v1/chat/completions', {
      model: 'm',
      messages: [
        { role: 'developer', content: [{ type: 'text', text: 'a short title please' }] },
        { role: 'user', content: 'x' },
      ],
    });
    await ok('/v1/responses', { model: 'm', instructions: 'a short title', input: 'x' });
    await ok('/v1/messages', {
      model: 'm',
      max_tokens: 5,
      system: [{ type: 'text', text: 'give a short title' }],
      messages: [{ role: 'user', content: 'x' }],
    });
    await ok('/model/m/converse', {
      system: [{ text: 'a short title' }],
      messages: [{ role: 'user', content: [{ text: 'x' }] }],
    });
    await ok('/v1beta/models/m:generateContent', {
      systemInstruction: { parts: [{ text: 'a short title' }] },
      contents: [{ role: 'user', parts: [{ text: 'x' }] }],
    });
    expect(s.remaining()).toBe(0);
    expect(s.requests.map((r) => r.turnIndex)).toEqual([6, 0, 1, 2, 3, 4, 5]);
  });

  it('keeps a turn with times: n for n requests', async () => {
    const s = await start({ turns: [{ text: 'again', times: 3 }, { text: 'last' }] });
    expect(s.remaining()).toBe(4);
    const answers = [];
    for (let i = 0; i < 4; i += 1) answers.push((await chatText(s, 'hi')).content);
    expect(answers).toEqual(['again', 'again', 'again', 'last']);
    expect(s.requests.map((r) => r.turnIndex)).toEqual([0, 0, 0, 1]);
    expect(s.remaining()).toBe(0);
  });

  it('answers 500 in the protocol shape and records the request when the script is exhausted', async () => {
    const s = await start({ turns: [{ text: 'only' }] });
    await chatText(s, 'hi');
    const { status, body } = await chatText(s, 'hi again');
    expect(status).toBe(500);
    expect(body.error?.message).toMatch(/script has no turn for this request/);
    expect(body.error?.type).toBe('server_error');
    expect(s.requests).toHaveLength(2);
    expect(s.requests[1]?.turnIndex).toBeUndefined();
    expect(s.requests[1]?.body).toMatchObject({ messages: [{ content: 'hi again' }] });
  });
});

describe('enqueue and reset', () => {
  it('enqueue appends turns numbered after the script, validating them', async () => {
    const s = await start({ turns: [{ text: 'a' }] });
    s.enqueue({ text: 'b' }, { text: 'c' });
    expect(s.remaining()).toBe(3);
    expect(() => s.enqueue({ times: 0 })).toThrow(/times/);
    for (const expected of ['a', 'b', 'c']) expect((await chatText(s, 'x')).content).toBe(expected);
    expect(s.requests.map((r) => r.turnIndex)).toEqual([0, 1, 2]);
  });

  it('reset replaces the queue and models and forgets the recorded requests', async () => {
    const s = await start({ turns: [{ text: 'old' }, { text: 'old 2' }] });
    await chatText(s, 'x');
    s.reset({ turns: [{ text: 'new' }], models: ['fresh'] });
    expect(s.requests).toHaveLength(0);
    expect(s.remaining()).toBe(1);
    expect((await chatText(s, 'x')).content).toBe('new');
    expect(s.requests[0]?.turnIndex).toBe(0);
    const models = (await (await fetch(`${s.url}/v1/models`)).json()) as { data: { id: string }[] };
    expect(models.data.map((m) => m.id)).toEqual(['fresh']);
    s.reset();
    expect(s.remaining()).toBe(0);
  });
});

describe('close', () => {
  it('stops listening and can be called twice', async () => {
    const s = await start({ turns: [] });
    await s.close();
    await s.close();
    await expect(fetch(`${s.url}/v1/models`)).rejects.toThrow();
  });
});
