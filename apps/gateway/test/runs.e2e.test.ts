/**
 * End to end: the built `hermes-gateway run` serving runs — a command that needs approval,
 * approved over HTTP, runs and removes the directory; another run is stopped over HTTP; and with
 * `max_concurrent_runs: 1` a second request while a stalled turn holds the slot gets a 429 with
 * Retry-After. One gateway process per describe.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { faults, type ScriptedServer, script } from '@hermes/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BACKSTOP_MS,
  type GatewayHome,
  makeHome,
  type RunningGateway,
  startGateway,
  startModel,
  until,
} from './support/spawn-gateway.ts';
import { collectSse, isRunEnd, readSse, type SseEvent } from './support/sse.ts';

const asksApproval = (event: SseEvent) =>
  event.event === 'notice' && event.data.includes('/approve');

describe('runs with approval and stop over HTTP', { timeout: BACKSTOP_MS * 2 }, () => {
  let model: ScriptedServer;
  let home: GatewayHome;
  let gateway: RunningGateway | undefined;
  const running = async () => {
    gateway ??= await startGateway(home);
    return gateway;
  };

  beforeAll(async () => {
    model = await startModel(script());
    // These runs test the person's ruling over HTTP; smart mode would ask the model first.
    home = makeHome(model, { yaml: 'approvals:\n  mode: manual\n' });
  });
  afterAll(async () => {
    const result = await gateway?.stop();
    await model.close();
    home.remove();
    expect(result?.code ?? 0).toBe(0);
  });

  function buildDir(): string {
    const build = join(home.workdir, 'build');
    mkdirSync(build, { recursive: true });
    writeFileSync(join(build, 'out.js'), 'compiled');
    return build;
  }

  it('runs `rm -rf ./build` once it is approved over HTTP', async () => {
    model.reset(
      script().toolCall('terminal', { command: 'rm -rf ./build' }).next().text('Cleaned up.'),
    );
    const build = buildDir();
    const { request } = await running();
    const created = await request('/v1/runs', { json: { input: 'clean the build directory' } });
    expect(created.status).toBe(202);
    const run = (await created.json()) as { id: string };
    const events = readSse(await request(`/v1/runs/${run.id}/events`));
    const asked = await collectSse(events, asksApproval);
    expect(asked.at(-1)?.data).toContain('rm -rf ./build');
    expect(existsSync(build)).toBe(true);

    const answer = await request(`/v1/runs/${run.id}/approval`, { json: { decision: 'approve' } });
    expect(answer.status).toBe(200);
    const rest = await collectSse(events, isRunEnd);
    expect(rest.at(-1)?.event).toBe('run.completed');
    expect(JSON.parse(rest.at(-1)?.data ?? '{}')).toMatchObject({ output: 'Cleaned up.' });
    expect(existsSync(build)).toBe(false);
  });

  it('stops a run waiting for approval; the command never runs', async () => {
    model.reset(script().toolCall('terminal', { command: 'rm -rf ./build' }).next().text('no'));
    const build = buildDir();
    const { request } = await running();
    const run = (await (await request('/v1/runs', { json: { input: 'clean' } })).json()) as {
      id: string;
    };
    const events = readSse(await request(`/v1/runs/${run.id}/events`));
    await collectSse(events, asksApproval);
    const stopped = await request(`/v1/runs/${run.id}/stop`, { json: {} });
    expect(stopped.status).toBe(200);
    expect((await collectSse(events, isRunEnd)).at(-1)?.event).toBe('run.cancelled');
    const polled = (await (await request(`/v1/runs/${run.id}`)).json()) as { status: string };
    expect(polled.status).toBe('cancelled');
    expect(existsSync(build)).toBe(true);
  });
});

describe('max_concurrent_runs: 1', { timeout: BACKSTOP_MS * 2 }, () => {
  let model: ScriptedServer;
  let home: GatewayHome;
  let gateway: RunningGateway | undefined;

  beforeAll(async () => {
    model = await startModel(script());
    home = makeHome(model, { apiServer: ['max_concurrent_runs: 1'] });
  });
  afterAll(async () => {
    await gateway?.stop();
    await model.close();
    home.remove();
  });

  it('answers 429 with Retry-After while a stalled turn holds the only slot', async () => {
    model.reset(script().fault(faults.stall()));
    gateway = await startGateway(home);
    const { request, client } = gateway;
    const run = (await (await request('/v1/runs', { json: { input: 'think hard' } })).json()) as {
      id: string;
    };
    await until(() => model.requests.length === 1, 'the stalled model request');

    const refused = await request('/v1/chat/completions', {
      json: { model: 'hermes-agent', messages: [{ role: 'user', content: 'me too' }] },
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = (await refused.json()) as { error: Record<string, unknown> };
    expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'param', 'type']);

    // Released: the stalled run is stopped, and the slot serves the next request.
    const events = readSse(await request(`/v1/runs/${run.id}/events`));
    model.reset(script().text('My turn now.'));
    await request(`/v1/runs/${run.id}/stop`, { json: {} });
    expect((await collectSse(events, isRunEnd)).at(-1)?.event).toBe('run.cancelled');
    const answer = await client.chat.completions.create({
      model: 'hermes-agent',
      messages: [{ role: 'user', content: 'me too' }],
    });
    expect(answer.choices[0]?.message.content).toBe('My turn now.');
  });
});
