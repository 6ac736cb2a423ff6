import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { aborted, hold } from './support/api-server-fake-pipeline.js';
import { type ApiHarness, startApiServer, TEST_KEY } from './support/api-server-harness.js';

let harness: ApiHarness;
afterEach(async () => {
  await harness?.close();
});

const chat = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };

/**
 * POSTs a chat completion body part by hand and resolves with the answer, which the server must
 * give before the rest of the body (never sent) arrives.
 */
function rawPost(
  url: string,
  headers: Record<string, string>,
  part: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TEST_KEY}`,
        'content-type': 'application/json',
        ...headers,
      },
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.write(part);
  });
}

async function errorOf(response: Response): Promise<Record<string, unknown>> {
  return ((await response.json()) as { error: Record<string, unknown> }).error;
}

describe('api_server: HTTP behaviour', () => {
  it('serves /health without a key, from the health callback; 503 while draining', async () => {
    let status = 'ok';
    harness = await startApiServer({}, { health: () => ({ status, runningTurns: 0 }) });
    const health = await fetch(`${harness.url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', runningTurns: 0 });
    expect(health.headers.get('x-content-type-options')).toBe('nosniff');
    status = 'draining';
    expect((await fetch(`${harness.url}/v1/health`)).status).toBe(503);
  });

  it('lists the one model through the openai client', async () => {
    harness = await startApiServer({ model_name: 'my-hermes' });
    const models = [];
    for await (const model of harness.client.models.list()) models.push(model);
    expect(models.map((model) => model.id)).toEqual(['my-hermes']);
    expect(models[0]).toMatchObject({ object: 'model', owned_by: 'hermes' });
    expect((await harness.client.models.retrieve('my-hermes')).id).toBe('my-hermes');
  });

  it('answers 401 in OpenAI shape for a missing or wrong key, on every route but /health', async () => {
    harness = await startApiServer();
    for (const [path, headers] of [
      ['/v1/models', {}],
      ['/v1/models', { authorization: 'Bearer wrong-key-wrong-key-1' }],
      ['/v1/runs/run_x', { authorization: `Basic ${TEST_KEY}` }],
      ['/v1/nothing-here', {}],
    ] as const) {
      const response = await fetch(`${harness.url}${path}`, { headers });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await errorOf(response)).toEqual({
        message: expect.any(String),
        type: 'authentication_error',
        param: null,
        code: 'invalid_api_key',
      });
    }
    const viaClient = await harness.client.models
      .list({ headers: { authorization: 'Bearer nope' } })
      .catch((error: unknown) => error);
    expect(viaClient).toMatchObject({ status: 401, code: 'invalid_api_key' });
  });

  it('answers 400 for a body that is not JSON, and names a missing or wrong field', async () => {
    harness = await startApiServer();
    const broken = await harness.request('/v1/chat/completions', {
      method: 'POST',
      body: '{"model": "m", "messages": [',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.status).toBe(400);
    expect(await errorOf(broken)).toEqual({
      message: expect.stringContaining('could not parse the JSON body'),
      type: 'invalid_request_error',
      param: null,
      code: 'invalid_json',
    });
    const missing = await harness.request('/v1/chat/completions', { json: { model: 'm' } });
    expect(await errorOf(missing)).toMatchObject({
      param: 'messages',
      code: 'missing_required_parameter',
    });
    const wrong = await harness.request('/v1/chat/completions', {
      json: { model: 'm', messages: [{ role: 'user', content: 42 }] },
    });
    expect(wrong.status).toBe(400);
    expect(await errorOf(wrong)).toMatchObject({
      param: 'messages[0].content',
      type: 'invalid_request_error',
    });
    const notLast = await harness.request('/v1/chat/completions', {
      json: { model: 'm', messages: [{ role: 'assistant', content: 'x' }] },
    });
    expect(await errorOf(notLast)).toMatchObject({ param: 'messages', code: 'invalid_value' });
    expect(harness.pipeline.received).toHaveLength(0);
  });

  it('answers 404 for an unknown route and 405 for a wrong method, in the same shape', async () => {
    harness = await startApiServer();
    const unknown = await harness.request('/v1/embeddings', { json: {} });
    expect(unknown.status).toBe(404);
    expect(await errorOf(unknown)).toMatchObject({ type: 'not_found_error', code: 'unknown_url' });
    const method = await harness.request('/v1/chat/completions');
    expect(method.status).toBe(405);
    expect(method.headers.get('allow')).toBe('POST');
    expect(method.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers 413 for a body over max_body_bytes, declared or streamed, without a turn', async () => {
    harness = await startApiServer({ max_body_bytes: 1024 });
    const big = JSON.stringify({
      ...chat,
      messages: [{ role: 'user', content: 'x'.repeat(4096) }],
    });
    const declared = await harness.request('/v1/chat/completions', {
      method: 'POST',
      body: big,
      headers: { 'content-type': 'application/json' },
    });
    expect(declared.status).toBe(413);
    expect(await errorOf(declared)).toMatchObject({ code: 'request_too_large' });

    // Chunked, with no Content-Length: refused once the read passes the cap.
    const streamed = await rawPost(harness.url, {}, big.slice(0, 2048));
    // Declared too large: refused before a byte of the body is read (the client never sends it).
    const announced = await rawPost(harness.url, { 'content-length': String(big.length) }, '{');
    expect(announced.status).toBe(413);
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body).error.code).toBe('request_too_large');
    expect(harness.pipeline.received).toHaveLength(0);
  });

  it('the default cap is 10 MiB: 11 MB is refused', async () => {
    harness = await startApiServer();
    const response = await harness.request('/v1/chat/completions', {
      method: 'POST',
      body: 'x'.repeat(11 * 1024 * 1024),
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(413);
  });

  it('answers 429 with Retry-After above max_concurrent_runs, and serves again after', async () => {
    harness = await startApiServer({ max_concurrent_runs: 2 });
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    harness.pipeline.queue(
      hold(() => released, 'one'),
      hold(() => released, 'two'),
    );
    const running = [1, 2].map(() => harness.request('/v1/runs', { json: { input: 'work' } }));
    expect((await Promise.all(running)).map((r) => r.status)).toEqual([202, 202]);
    expect(harness.adapter.runningTurns).toBe(2);

    const refused = await harness.request('/v1/chat/completions', { json: chat });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('2');
    expect(await errorOf(refused)).toMatchObject({
      type: 'rate_limit_error',
      code: 'too_many_runs',
    });
    expect((await harness.request('/v1/runs', { json: { input: 'more' } })).status).toBe(429);
    expect(harness.pipeline.received).toHaveLength(2);

    release();
    await expect.poll(() => harness.adapter.runningTurns).toBe(0);
    const after = await harness.client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(after.choices[0]?.message.content).toBe('ok');
  });

  it('aborts the turn when the client goes away', async () => {
    harness = await startApiServer();
    let sawAbort = false;
    harness.pipeline.queue(
      hold(
        async (delivery) => {
          await aborted(delivery);
          sawAbort = true;
        },
        'never read',
        { exitReason: 'interrupted_by_user' },
      ),
    );
    const controller = new AbortController();
    const pending = harness
      .request('/v1/chat/completions', {
        json: { ...chat, stream: true },
        signal: controller.signal,
      })
      .then(async (response) => {
        // Headers arrive with turn_start; then the client hangs up mid-stream.
        controller.abort();
        await response.text().catch(() => '');
      })
      .catch(() => undefined);
    const delivery = await harness.pipeline.waitFor(() => true);
    await pending;
    await aborted(delivery);
    expect(delivery.context?.signal?.aborted).toBe(true);
    await expect.poll(() => sawAbort).toBe(true);
    await expect.poll(() => harness.adapter.runningTurns).toBe(0);
  });

  it('applies cors_origins: an allowed origin gets CORS headers, another is refused', async () => {
    harness = await startApiServer({ cors_origins: 'http://localhost:3000' });
    const preflight = await fetch(`${harness.url}/v1/chat/completions`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:3000',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
    const allowed = await harness.request('/v1/models', {
      headers: { origin: 'http://localhost:3000' },
    });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    expect(allowed.headers.get('access-control-expose-headers')).toContain('x-hermes-session-id');

    const other = await harness.request('/v1/models', {
      headers: { origin: 'https://evil.example' },
    });
    expect(other.status).toBe(403);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(await errorOf(other)).toMatchObject({ code: 'origin_not_allowed' });
  });

  it('sends no CORS headers by default, and refuses every browser origin', async () => {
    harness = await startApiServer();
    const plain = await harness.request('/v1/models');
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
    const browser = await harness.request('/v1/models', {
      headers: { origin: 'http://localhost:3000' },
    });
    expect(browser.status).toBe(403);
  });

  it('listens on the configured host and frees the port on disconnect', async () => {
    harness = await startApiServer();
    const { port } = harness.adapter.listening ?? { port: 0 };
    expect(harness.adapter.listening?.host).toBe('127.0.0.1');
    await harness.adapter.disconnect();
    expect(harness.adapter.listening).toBeUndefined();
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
    await harness.adapter.disconnect();
  });
});
