import { afterEach, describe, expect, it } from 'vitest';
import { approvalTurn, controlFrom, hold, reply } from './support/api-server-fake-pipeline.js';
import {
  type ApiHarness,
  collectSse,
  readSse,
  type SseEvent,
  startApiServer,
} from './support/api-server-harness.js';

let harness: ApiHarness;
afterEach(async () => {
  await harness?.close();
});

interface RunJson {
  id: string;
  run_id: string;
  status: string;
  session_id: string | null;
  output: string | null;
  pending_approval: { command: string } | null;
}

async function startRun(
  body: Record<string, unknown>,
): Promise<{ status: number; run: RunJson; location: string | null }> {
  const response = await harness.request('/v1/runs', { json: body });
  return {
    status: response.status,
    run: (await response.json()) as RunJson,
    location: response.headers.get('location'),
  };
}

const isEnd = (event: SseEvent) => /^run\.(completed|failed|cancelled)$/.test(event.event ?? '');

describe('api_server: /v1/runs', () => {
  it('starts a run with 202, then polls it to completed', async () => {
    harness = await startApiServer();
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    harness.pipeline.queue(hold(() => released, 'All done.', { sessionId: 'sess-run' }));
    const { status, run, location } = await startRun({ input: 'Do the thing', user: 'bob' });
    expect(status).toBe(202);
    expect(run).toMatchObject({ run_id: run.id, status: 'running' });
    expect(run.id).toMatch(/^run_/);
    expect(location).toBe(`/v1/runs/${run.id}`);
    const [delivery] = harness.pipeline.received;
    expect(delivery?.message).toMatchObject({
      chatId: run.id,
      userId: 'bob',
      text: 'Do the thing',
    });
    // A run is detached from the request that started it: no client signal, only shutdown's.
    expect(delivery?.context?.signal?.aborted).toBe(false);

    release();
    const events = await collectSse(
      readSse(await harness.request(`/v1/runs/${run.id}/events`)),
      isEnd,
    );
    expect(events.at(-1)?.event).toBe('run.completed');
    const polled = (await (await harness.request(`/v1/runs/${run.id}`)).json()) as RunJson;
    expect(polled).toMatchObject({
      status: 'completed',
      output: 'All done.',
      session_id: 'sess-run',
    });
  });

  it('replays what already happened to a late subscriber, with ids to resume from', async () => {
    harness = await startApiServer();
    harness.pipeline.queue(
      reply('Finished.', { tool: { name: 'read_file', arguments: '{}', preview: 'x' } }),
    );
    const { run } = await startRun({ input: 'quick' });
    // The run is over before anyone subscribes.
    const over = (await (await harness.request(`/v1/runs/${run.id}`)).json()) as RunJson;
    expect(over.status).toBe('completed');
    const events = await collectSse(readSse(await harness.request(`/v1/runs/${run.id}/events`)));
    const names = events.map((event) => event.event);
    expect(names[0]).toBe('run.started');
    expect(names).toContain('tool.started');
    expect(names).toContain('tool.completed');
    expect(names).toContain('message.delta');
    expect(names.at(-1)).toBe('run.completed');
    const ids = events.map((event) => Number(event.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const deltas = events
      .filter((event) => event.event === 'message.delta')
      .map((event) => (JSON.parse(event.data) as { delta: string }).delta)
      .join('');
    expect(deltas).toBe('Finished.');

    const resumed = await collectSse(
      readSse(
        await harness.request(`/v1/runs/${run.id}/events`, {
          headers: { 'last-event-id': String(ids.at(-2)) },
        }),
      ),
    );
    expect(resumed.map((event) => event.event)).toEqual(['run.completed']);
  });

  it("answers an approval over HTTP as /approve <scope> from the run's own chat and user", async () => {
    harness = await startApiServer();
    harness.pipeline.queue(approvalTurn('Deleted build/.'));
    const { run } = await startRun({ input: 'clean up', user: 'carol', session_id: 'sess-9' });
    const stream = readSse(await harness.request(`/v1/runs/${run.id}/events`));
    const seen = await collectSse(stream, (event) => event.event === 'approval.request');
    expect(JSON.parse(seen.at(-1)?.data ?? '{}')).toMatchObject({
      command: 'rm -rf build',
      reason: 'recursive delete',
      run_id: run.id,
    });
    const waiting = (await (await harness.request(`/v1/runs/${run.id}`)).json()) as RunJson;
    expect(waiting.status).toBe('waiting_for_approval');
    expect(waiting.pending_approval?.command).toBe('rm -rf build');

    const answer = await harness.request(`/v1/runs/${run.id}/approval`, {
      json: { decision: 'approve', scope: 'session' },
    });
    expect(answer.status).toBe(200);
    // The pipeline's own words about the ruling come back.
    expect(await answer.json()).toMatchObject({
      decision: 'approve',
      scope: 'session',
      message: 'handled /approve session',
    });
    const rest = await collectSse(stream, isEnd);
    expect(rest.map((event) => event.event)).toContain('approval.resolved');
    expect(rest.at(-1)?.event).toBe('run.completed');
    expect(JSON.parse(rest.at(-1)?.data ?? '{}')).toMatchObject({ output: 'Deleted build/.' });

    const control = harness.pipeline.received.find((d) => d.message.text.startsWith('/approve'));
    expect(control?.message).toMatchObject({
      text: '/approve session',
      chatId: 'sess-9',
      userId: 'carol',
      platform: 'api_server',
    });
    expect(harness.pipeline.received[0]?.context?.sessionId).toBe('sess-9');
  });

  it('sends /deny for a denial, and refuses an approval once the run has ended with 409', async () => {
    harness = await startApiServer();
    harness.pipeline.queue(approvalTurn('never'));
    const { run } = await startRun({ input: 'clean up' });
    const stream = readSse(await harness.request(`/v1/runs/${run.id}/events`));
    await collectSse(stream, (event) => event.event === 'approval.request');
    const denied = await harness.request(`/v1/runs/${run.id}/approval`, {
      json: { decision: 'deny' },
    });
    expect(denied.status).toBe(200);
    const end = await collectSse(stream, isEnd);
    expect(JSON.parse(end.at(-1)?.data ?? '{}')).toMatchObject({ output: 'Not deleted.' });
    expect(harness.pipeline.received.map((d) => d.message.text)).toContain('/deny');

    const late = await harness.request(`/v1/runs/${run.id}/approval`, {
      json: { decision: 'approve' },
    });
    expect(late.status).toBe(409);
    expect(((await late.json()) as { error: { code: string } }).error.code).toBe('run_not_running');
    const bad = await harness.request(`/v1/runs/${run.id}/approval`, {
      json: { decision: 'maybe' },
    });
    expect(bad.status).toBe(400);
  });

  it('stops a run with /stop from its chat, and the run ends cancelled', async () => {
    harness = await startApiServer();
    harness.pipeline.queue(
      hold(controlFrom('/stop'), 'Stopped.', {
        exitReason: 'interrupted_by_user',
        tool: { name: 'terminal', arguments: '{"command":"sleep 100"}', preview: '' },
      }),
    );
    const { run } = await startRun({ input: 'long job' });
    const stopped = await harness.request(`/v1/runs/${run.id}/stop`, { method: 'POST' });
    expect(stopped.status).toBe(200);
    expect(((await stopped.json()) as RunJson).status).toMatch(/stopping|cancelled/);
    const events = await collectSse(
      readSse(await harness.request(`/v1/runs/${run.id}/events`)),
      isEnd,
    );
    expect(events.at(-1)?.event).toBe('run.cancelled');
    const polled = (await (await harness.request(`/v1/runs/${run.id}`)).json()) as RunJson;
    expect(polled.status).toBe('cancelled');
    const again = await harness.request(`/v1/runs/${run.id}/stop`, { method: 'POST' });
    expect(again.status).toBe(409);
  });

  it('answers 404 for an unknown run and 400 for a run without input', async () => {
    harness = await startApiServer();
    expect((await harness.request('/v1/runs/run_nope')).status).toBe(404);
    expect((await harness.request('/v1/runs/run_nope/events')).status).toBe(404);
    const missing = await harness.request('/v1/runs', { json: { session_id: 's' } });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({
      error: {
        message: "Missing required parameter: 'input'.",
        type: 'invalid_request_error',
        param: 'input',
        code: 'missing_required_parameter',
      },
    });
  });

  it('seeds a new session from conversation_history and instructions', async () => {
    harness = await startApiServer();
    await startRun({
      input: 'third',
      instructions: 'Be terse.',
      conversation_history: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'second' },
      ],
    });
    const [delivery] = harness.pipeline.received;
    expect(delivery?.context?.history).toEqual([
      { role: 'system', content: 'Be terse.' },
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'second' },
    ]);
  });
});
