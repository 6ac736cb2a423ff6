/** Every fault kind over real HTTP: HTTP errors, stalls, disconnects, raw bodies and delays. */
import { describe, expect, it } from 'vitest';
import { faults } from '../src/faults.ts';
import type { FaultInput, ScriptTurnInput } from '../src/script.ts';
import type { ScriptedServer } from '../src/server.ts';
import {
  chatBody,
  postJson,
  readUntilEnd,
  settlesWithin,
  sseData,
} from './support/http-helpers.ts';
import { useScriptedServer } from './support/scripted-server.ts';

const server = useScriptedServer();

function start(...turns: ScriptTurnInput[]): Promise<ScriptedServer> {
  return server.start({ turns });
}

function chat(s: ScriptedServer, extra: Record<string, unknown> = {}, signal?: AbortSignal) {
  return postJson(`${s.url}/v1/chat/completions`, chatBody('hi', extra), {}, signal);
}

function anthropic(s: ScriptedServer) {
  return postJson(`${s.url}/v1/messages`, {
    model: 'claude-test',
    max_tokens: 10,
    messages: [{ role: 'user', content: 'hi' }],
  });
}

async function errorOf(response: Response): Promise<Record<string, unknown>> {
  return ((await response.json()) as { error: Record<string, unknown> }).error;
}

describe('http faults', () => {
  it('sends status, headers and the protocol error body', async () => {
    const s = await start({ fault: faults.rateLimited(7) }, { fault: faults.rateLimited(7) });
    const response = await chat(s, { stream: true });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await errorOf(response)).toEqual({
      message: 'Rate limit reached for requests. Please try again in 7s.',
      type: 'requests',
      param: null,
      code: 'rate_limit_exceeded',
    });
    const viaAnthropic = await anthropic(s);
    expect(viaAnthropic.status).toBe(429);
    expect(JSON.stringify(await viaAnthropic.json())).toContain('rate_limit_error');
  });

  it('words context-length errors as each service does', async () => {
    const s = await start(
      { fault: faults.contextLength(1000, 1200) },
      { fault: faults.contextLength(1000, 1200) },
    );
    const openai = await chat(s);
    expect(openai.status).toBe(400);
    expect(await errorOf(openai)).toEqual({
      message:
        "This model's maximum context length is 1000 tokens. However, your messages resulted in 1200 tokens. Please reduce the length of the messages.",
      type: 'invalid_request_error',
      param: null,
      code: 'context_length_exceeded',
    });
    const viaAnthropic = await anthropic(s);
    expect(viaAnthropic.status).toBe(400);
    const text = JSON.stringify(await viaAnthropic.json());
    expect(text).toContain('prompt is too long: 1200 tokens > 1000 maximum');
    expect(text).toContain('invalid_request_error');
  });

  it('sends a string body verbatim and an object body as JSON', async () => {
    const s = await start(
      { fault: { kind: 'http', status: 502, body: 'upstream is down' } },
      { fault: { kind: 'http', status: 418, body: { custom: true }, headers: { 'X-Why': 'tea' } } },
    );
    const text = await chat(s);
    expect(text.status).toBe(502);
    expect(text.headers.get('content-type')).toContain('text/plain');
    expect(await text.text()).toBe('upstream is down');
    const object = await chat(s);
    expect(object.status).toBe(418);
    expect(object.headers.get('x-why')).toBe('tea');
    expect(await object.json()).toEqual({ custom: true });
  });

  it('uses the status text when a fault has no message', async () => {
    const s = await start({ fault: { kind: 'http', status: 503 } });
    expect(await errorOf(await chat(s))).toMatchObject({
      message: '503 Service Unavailable',
      type: 'server_error',
    });
  });

  const presets: [string, FaultInput, number, string][] = [
    ['unauthorized', faults.unauthorized(), 401, 'Incorrect API key'],
    ['usageLimit', faults.usageLimit(), 402, 'try again in 5 minutes'],
    ['insufficientCredits', faults.insufficientCredits(), 402, 'Insufficient credits'],
    ['modelNotFound', faults.modelNotFound('gpt-x'), 404, '`gpt-x` does not exist'],
    ['payloadTooLarge', faults.payloadTooLarge(), 413, 'Request too large'],
    ['badRequest', faults.badRequest('nope'), 400, 'nope'],
    ['serverError', faults.serverError(), 500, 'The server had an error'],
    ['unavailable', faults.unavailable(), 503, 'unavailable'],
    ['overloaded', faults.overloaded(), 529, 'Overloaded'],
    ['temporarilyOverloaded', faults.temporarilyOverloaded(), 429, 'temporarily overloaded'],
  ];
  it.each(presets)('%s answers %s with its message', async (_name, fault, status, message) => {
    const s = await start({ fault });
    const response = await chat(s);
    expect(response.status).toBe(status);
    expect(String((await errorOf(response)).message)).toContain(message);
  });

  it('gives Anthropic its own error types', async () => {
    const s = await start(
      { fault: faults.overloaded() },
      { fault: faults.unauthorized() },
      { fault: faults.modelNotFound('claude-x') },
    );
    const texts = [];
    for (let i = 0; i < 3; i += 1) texts.push(JSON.stringify(await (await anthropic(s)).json()));
    expect(texts[0]).toContain('overloaded_error');
    expect(texts[1]).toContain('authentication_error');
    expect(texts[2]).toContain('not_found_error');
  });
});

describe('stall', () => {
  it('sends SSE headers, then nothing until the server closes', async () => {
    const s = await start({ text: 'never sent', fault: faults.stall() });
    const response = await chat(s, { stream: true });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body?.getReader();
    if (!reader) throw new Error('no body');
    const read = reader.read();
    // Silence cannot be awaited as an event: 300 ms of it is the evidence. A slow machine can
    // only make this pass more slowly, never fail; close() below is the event that ends it.
    expect(await settlesWithin(read, 300)).toBe('timeout');
    await s.close();
    const outcome = await settlesWithin(read, 15_000);
    expect(outcome).not.toBe('timeout');
    // Nothing was sent before the close: the read ends or fails without a frame.
    expect(outcome).not.toMatchObject({ value: { done: false } });
  });

  it('sends the first afterChunks frames, then stalls', async () => {
    const s = await start({
      text: 'abcdefghijklmnop',
      chunking: { textChunkSize: 2 },
      fault: faults.stall(3),
    });
    const response = await chat(s, { stream: true });
    const reader = response.body?.getReader();
    if (!reader) throw new Error('no body');
    let text = '';
    const decoder = new TextDecoder();
    while ((text.match(/\n\n/g) ?? []).length < 3) {
      const { value } = await reader.read();
      text += decoder.decode(value, { stream: true });
    }
    const data = sseData(text) as { choices: { delta: { content?: string } }[] }[];
    expect(data.map((d) => d.choices[0]?.delta.content)).toEqual(['', 'ab', 'cd']);
    expect(await settlesWithin(reader.read(), 300)).toBe('timeout');
  });

  it('for a non-streamed request sends headers, then silence', async () => {
    const s = await start({ text: 'never', fault: faults.stall() });
    const response = await chat(s);
    expect(response.status).toBe(200);
    expect(await settlesWithin(response.text(), 300)).toBe('timeout');
  });

  it('ends when the client aborts, and the server still answers others', async () => {
    const s = await start({ fault: faults.stall() }, { text: 'next' });
    const controller = new AbortController();
    const response = await chat(s, { stream: true }, controller.signal);
    controller.abort();
    await expect(response.text()).rejects.toThrow();
    const next = await chat(s);
    expect(await next.json()).toMatchObject({ choices: [{ message: { content: 'next' } }] });
  });
});

describe('disconnect', () => {
  it('cuts the stream after afterChunks frames', async () => {
    const s = await start({
      text: 'abcdefghij',
      chunking: { textChunkSize: 2 },
      fault: faults.disconnect(2),
    });
    const response = await chat(s, { stream: true });
    expect(response.status).toBe(200);
    const { text, error } = await readUntilEnd(response);
    expect(error).toBeDefined();
    const data = sseData(text) as { choices: { delta: { content?: string } }[] }[];
    expect(data.map((d) => d.choices[0]?.delta.content)).toEqual(['', 'ab']);
  });

  it('drops a non-streamed request without an answer', async () => {
    const s = await start({ text: 'x', fault: faults.disconnect() });
    await expect(chat(s)).rejects.toThrow();
    expect(s.requests).toHaveLength(1);
  });
});

describe('raw faults', () => {
  it('sends an HTML error page verbatim', async () => {
    const s = await start({ fault: faults.htmlErrorPage(502) });
    const response = await chat(s);
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toBe('text/html');
    expect(await response.text()).toContain('<title>502 Bad Gateway</title>');
  });

  it('sends a 200 whose JSON body is not JSON, and an empty body', async () => {
    const s = await start({ fault: faults.nonJson200() }, { fault: faults.emptyBody() });
    const nonJson = await chat(s);
    expect(nonJson.status).toBe(200);
    await expect(nonJson.json()).rejects.toThrow();
    const empty = await chat(s);
    expect(empty.status).toBe(200);
    expect(await empty.text()).toBe('');
  });

  it('sends malformed SSE: one broken JSON frame among good ones', async () => {
    const s = await start({ fault: faults.malformedSse() });
    const response = await chat(s, { stream: true });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const frames = (await response.text()).split('\n\n').filter((f) => f !== '');
    const parses = frames.map((frame) => {
      try {
        JSON.parse(frame.slice('data: '.length));
        return true;
      } catch {
        return frame === 'data: [DONE]';
      }
    });
    expect(parses.filter((ok) => !ok)).toHaveLength(1);
    expect(parses.filter((ok) => ok).length).toBeGreaterThan(3);
  });
});

// Delays are checked by lower bounds only: a pause can never end early, however loaded the
// machine, while any upper bound (or a gap measured on the client) is a race with the scheduler.
// That each frame is flushed as it is written is shown by the stall tests above: the frames
// before a stall arrive while the server holds the rest.
describe('delays', () => {
  it('waits before a JSON answer and before an HTTP error', async () => {
    const s = await start(
      { text: 'slow', delayMs: 200 },
      { fault: faults.serverError(), delayMs: 200 },
    );
    let started = performance.now();
    await (await chat(s)).json();
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    started = performance.now();
    expect((await chat(s)).status).toBe(500);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('waits before each frame of a stream', async () => {
    const s = await start({ text: 'abc', chunking: { textChunkSize: 1 }, delayMs: 100 });
    const started = performance.now();
    const response = await chat(s, { stream: true });
    const { text, error } = await readUntilEnd(response);
    const endAt = performance.now();
    expect(error).toBeUndefined();
    // Six frames (role, a, b, c, finish, [DONE]), each after its own 100 ms pause.
    expect(sseData(text)).toHaveLength(6);
    expect(endAt - started).toBeGreaterThanOrEqual(590);
  });
});
