/**
 * The API server in front of the real Gateway (pipeline, session directory, agent cache, chat
 * approval) with real agents against a scripted model: what an OpenAI client and a runs client
 * see when the pipeline, not a test double, drives the sink.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { script } from '@hermes/testkit';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiServerAdapter } from '../src/adapters/api-server/api-server-adapter.js';
import { resolveApiServerSettings } from '../src/adapters/api-server/api-server-settings.js';
import { collectSse, readSse, type SseEvent, TEST_KEY } from './support/api-server-harness.js';
import { type Harness, startHarness } from './support/gateway-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function gatewayWithApi(model: ReturnType<typeof script>) {
  // The approval tests are about the person's ruling over HTTP, not smart mode's judge.
  writeFileSync(join(process.env.HERMES_HOME ?? '', 'config.yaml'), 'approvals:\n  mode: manual\n');
  const api = new ApiServerAdapter({
    settings: resolveApiServerSettings({ key: TEST_KEY, port: 0 }),
  });
  h = await startHarness(model, {
    extraAdapters: [api],
    platforms: { api_server: { enabled: true } },
  });
  const url = `http://127.0.0.1:${api.listening?.port}`;
  const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: TEST_KEY, maxRetries: 0 });
  const request = (path: string, json?: unknown) =>
    fetch(`${url}${path}`, {
      method: json === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
  return { api, client, request, harness: h };
}

const isEnd = (event: SseEvent) => /^run\.(completed|failed|cancelled)$/.test(event.event ?? '');

describe('api_server behind the real gateway', () => {
  it('answers chat completions and continues the echoed session', async () => {
    const { client } = await gatewayWithApi(
      script().text('Hello from the gateway.').next().text('Still here.'),
    );
    const { data, response } = await client.chat.completions
      .create({ model: 'hermes-agent', messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    expect(data.choices[0]?.message.content).toBe('Hello from the gateway.');
    const sessionId = response.headers.get('x-hermes-session-id');
    expect(sessionId).toBeTruthy();

    const stream = await client.chat.completions.create(
      { model: 'hermes-agent', messages: [{ role: 'user', content: 'again' }], stream: true },
      { headers: { 'X-Hermes-Session-Id': sessionId ?? '' } },
    );
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('Still here.');
  });

  it('runs a command that needs approval once approved over HTTP', async () => {
    const { request, harness } = await gatewayWithApi(
      script().toolCall('terminal', { command: 'rm -rf ./build' }).next().text('Cleaned up.'),
    );
    const build = join(harness.workdir, 'build');
    mkdirSync(build, { recursive: true });
    writeFileSync(join(build, 'out.js'), 'compiled');

    const created = await request('/v1/runs', { input: 'clean the build directory' });
    expect(created.status).toBe(202);
    const run = (await created.json()) as { id: string };
    const events = readSse(await request(`/v1/runs/${run.id}/events`));
    // The pipeline asks in words, as it asks a chat.
    const asked = await collectSse(
      events,
      (event) => event.event === 'notice' && event.data.includes('/approve'),
    );
    expect(asked.at(-1)?.data).toContain('rm -rf ./build');
    expect(existsSync(build)).toBe(true);

    const answer = await request(`/v1/runs/${run.id}/approval`, { decision: 'approve' });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { message: string }).message).toContain('Approved once');
    const rest = await collectSse(events, isEnd);
    expect(rest.at(-1)?.event).toBe('run.completed');
    expect(JSON.parse(rest.at(-1)?.data ?? '{}')).toMatchObject({ output: 'Cleaned up.' });
    expect(existsSync(build)).toBe(false);
  });

  it('stops a run over HTTP', async () => {
    const { request, harness } = await gatewayWithApi(
      script().toolCall('terminal', { command: 'rm -rf ./build' }).next().text('never'),
    );
    mkdirSync(join(harness.workdir, 'build'), { recursive: true });
    const run = (await (await request('/v1/runs', { input: 'clean' })).json()) as { id: string };
    const events = readSse(await request(`/v1/runs/${run.id}/events`));
    await collectSse(
      events,
      (event) => event.event === 'notice' && event.data.includes('/approve'),
    );
    const stopped = await request(`/v1/runs/${run.id}/stop`, {});
    expect(stopped.status).toBe(200);
    const rest = await collectSse(events, isEnd);
    expect(rest.at(-1)?.event).toBe('run.cancelled');
    const polled = (await (await request(`/v1/runs/${run.id}`)).json()) as { status: string };
    expect(polled.status).toBe('cancelled');
    expect(existsSync(join(harness.workdir, 'build'))).toBe(true);
  });
});
