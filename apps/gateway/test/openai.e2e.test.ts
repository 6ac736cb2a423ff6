/**
 * End to end: the built `hermes-gateway run`, one process for the whole file, driven with the
 * official `openai` client against a @hermes/testkit scripted model — chat completions (JSON, and
 * streamed with a tool running in between), the Responses API continued with
 * `previous_response_id`, the error shapes (401, 413, 400), `/health`, and at the end a SIGTERM
 * that exits 0 leaving a gateway.log that holds no key.
 */
import { writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { type ScriptedServer, script } from '@hermes/testkit';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BACKSTOP_MS,
  E2E_KEY,
  type GatewayHome,
  gatewayLog,
  makeHome,
  type RunningGateway,
  startGateway,
  startModel,
} from './support/spawn-gateway.ts';

type ChatBody = { messages: { role: string; content: unknown }[] };
type ErrorBody = { error: { message: string; type: string; param: string | null; code: unknown } };

let model: ScriptedServer;
let home: GatewayHome;
let gateway: RunningGateway | undefined;

/** The running gateway (started by the first test that needs it, so a missing build fails it). */
async function running(): Promise<RunningGateway> {
  gateway ??= await startGateway(home);
  return gateway;
}

beforeAll(async () => {
  model = await startModel(script());
  home = makeHome(model);
});

afterAll(async () => {
  gateway?.child.kill('SIGKILL');
  await model.close();
  home.remove();
});

function modelMessages(index: number): string {
  return JSON.stringify((model.requests[index]?.body as ChatBody | undefined)?.messages ?? []);
}

describe('hermes-gateway run with the openai client', { timeout: BACKSTOP_MS * 2 }, () => {
  it('answers a chat completion after a read_file tool ran in the agents’ directory', async () => {
    writeFileSync(join(home.workdir, 'notes.txt'), 'the launch code is 4711\n');
    model.reset(
      script().toolCall('read_file', { path: 'notes.txt' }).next().text('The code is 4711.'),
    );
    const { client } = await running();
    const { data, response } = await client.chat.completions
      .create({ model: 'hermes-agent', messages: [{ role: 'user', content: 'read notes.txt' }] })
      .withResponse();
    expect(data.object).toBe('chat.completion');
    expect(data.choices[0]?.message.content).toBe('The code is 4711.');
    expect(response.headers.get('x-hermes-session-id')).toBeTruthy();
    expect(model.requests).toHaveLength(2);
    expect(modelMessages(1)).toContain('the launch code is 4711');
  });

  it('streams a chat completion with a terminal command run in between', async () => {
    model.reset(script().toolCall('terminal', { command: 'echo hi' }).next().text('It said hi.'));
    const { client } = await running();
    const stream = await client.chat.completions.create({
      model: 'hermes-agent',
      messages: [{ role: 'user', content: 'run echo hi' }],
      stream: true,
    });
    let text = '';
    let chunks = 0;
    for await (const chunk of stream) {
      // Hermes' own frames (tool progress, the session) carry no `object`; clients skip them.
      if (chunk.object !== 'chat.completion.chunk') continue;
      chunks += 1;
      text += chunk.choices[0]?.delta?.content ?? '';
    }
    expect(text).toBe('It said hi.');
    expect(chunks).toBeGreaterThan(1);
    expect(model.requests).toHaveLength(2);
    expect(modelMessages(1)).toMatch(/"role":"tool".*hi/);
  });

  it('continues a conversation with the Responses API and previous_response_id', async () => {
    model.reset(script().text('Nice to meet you, Ada.').next().text('You are Ada.'));
    const { client } = await running();
    const first = await client.responses.create({ model: 'hermes-agent', input: 'I am Ada.' });
    expect(first.output_text).toBe('Nice to meet you, Ada.');
    const second = await client.responses.create({
      model: 'hermes-agent',
      input: 'Who am I?',
      previous_response_id: first.id,
    });
    expect(second.output_text).toBe('You are Ada.');
    // The second model request carries the first exchange.
    const sent = modelMessages(1);
    expect(sent).toContain('I am Ada.');
    expect(sent).toContain('Nice to meet you, Ada.');
    expect(sent).toContain('Who am I?');
  });

  it('refuses a wrong key with 401 in the OpenAI shape', async () => {
    const { url, request } = await running();
    const wrong = new OpenAI({
      baseURL: `${url}/v1`,
      apiKey: 'wrong-key-0123456789',
      maxRetries: 0,
    });
    await expect(wrong.models.list()).rejects.toMatchObject({ status: 401 });
    const raw = await request('/v1/models', { headers: { authorization: 'Bearer nope' } });
    expect(raw.status).toBe(401);
    expect(raw.headers.get('x-content-type-options')).toBe('nosniff');
    const body = (await raw.json()) as ErrorBody;
    expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'param', 'type']);
  });

  it('answers 400 in the OpenAI shape for bad JSON and a missing field', async () => {
    const { request } = await running();
    const badJson = await request('/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"model": ',
    });
    expect(badJson.status).toBe(400);
    const bad = (await badJson.json()) as ErrorBody;
    expect(bad.error).toMatchObject({ type: 'invalid_request_error' });
    expect(Object.keys(bad.error).sort()).toEqual(['code', 'message', 'param', 'type']);

    const missing = await request('/v1/chat/completions', { json: { model: 'hermes-agent' } });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as ErrorBody).error).toMatchObject({
      type: 'invalid_request_error',
      param: 'messages',
    });
  });

  it('answers 413 to a body over 10 MB', async () => {
    const { url } = await running();
    // The whole body is not sent: the server answers as soon as it sees the declared size, and
    // a client still writing would get EPIPE instead of reading the answer.
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${E2E_KEY}`,
          'content-type': 'application/json',
          'content-length': String(10 * 1024 * 1024 + 1),
        },
      });
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body });
          req.destroy();
        });
      });
      req.on('error', reject);
      req.write('{"model": "hermes-agent", "messages": [');
    });
    expect(answer.status).toBe(413);
    expect((JSON.parse(answer.body) as ErrorBody).error.message).toBeTruthy();
  });

  it('reports the gateway on /health without a key', async () => {
    const { url } = await running();
    const health = (await (await fetch(`${url}/health`)).json()) as Record<string, unknown>;
    expect(health).toMatchObject({
      status: 'ok',
      adapters: [{ platform: 'api_server', connected: true }],
      runningTurns: 0,
    });
    expect(typeof health.cachedAgents).toBe('number');
    expect((health.heap as { usedBytes: number }).usedBytes).toBeGreaterThan(0);
  });

  it('exits 0 on SIGTERM and leaves a gateway.log without the key', async () => {
    const result = await (await running()).stop();
    expect(result).toMatchObject({ code: 0, signal: null });
    expect(result.stdout).toContain('SIGTERM received: draining');
    expect(result.stdout).toMatch(/gateway stopped\n$/);
    const log = gatewayLog(home);
    expect(log).toContain('gateway: started');
    expect(log).toContain('gateway: stopped');
    expect(log).not.toContain(E2E_KEY);
    expect(result.stdout + result.stderr).not.toContain(E2E_KEY);
  });
});
