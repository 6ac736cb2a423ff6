/**
 * The gateway's cron clock, through `buildGatewayServer` with a loopback chat platform and the
 * testkit's scripted model: a due job runs on the clock's first tick and its answer reaches the
 * chat through the gateway's delivery step; deliveries queued while no gateway ran are sent when
 * it starts; `gateway.pid` says a gateway runs; and a job created with the `cronjob` tool in a
 * chat records that chat (and thread) as its origin.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openSqliteJobStore, QueueingCronDelivery } from '@hermes/cron';
import { type ScriptedServer, script, startScriptedServer } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import {
  buildGatewayServer,
  type GatewayServer,
  isGatewayRunning,
  NO_GATEWAY_PLUGINS,
} from '../src/index.ts';
import { configFor, dueJob, home, LoopbackAdapter } from './cron-fixtures.ts';

let model: ScriptedServer | undefined;
let gateway: GatewayServer | undefined;
afterEach(async () => {
  await gateway?.close({ drainTimeoutMs: 1_000 });
  await model?.close();
  gateway = undefined;
  model = undefined;
});

const LOOPBACK_PLATFORM = [
  'platforms:',
  '  loopback:',
  '    enabled: true',
  '    allow_all_users: true',
];

/** A gateway serving the loopback platform over `built`, not started. */
async function gatewayOver(built: ReturnType<typeof script>) {
  model = await startScriptedServer(built);
  const config = await configFor(model, LOOPBACK_PLATFORM);
  const adapter = new LoopbackAdapter();
  gateway = buildGatewayServer(config, {
    plugins: { ...NO_GATEWAY_PLUGINS, adapters: new Map([['loopback', adapter]]) },
  });
  return { adapter, server: gateway };
}

describe('the gateway’s cron clock', () => {
  it('runs a due job on its first tick and delivers the answer to the loopback chat', async () => {
    const { adapter, server } = await gatewayOver(script().text('Daily report: all systems up.'));
    const cron = server.cron;
    if (!cron) throw new Error('the gateway has no cron service');
    const job = await dueJob(cron.store, {
      deliver: { kind: 'chat', platform: 'loopback', chatId: 'room-1', threadId: 'ops' },
    });
    expect(isGatewayRunning(home())).toBe(false);

    await server.start();
    expect(isGatewayRunning(home())).toBe(true);
    const text = await adapter.waitForSent((sent) => sent.includes('all systems up'));
    expect(text).toContain('Daily report: all systems up.');
    const sent = adapter.sent.find((message) => message.text === text);
    expect(sent?.target).toMatchObject({ chatId: 'room-1', threadId: 'ops' });

    // Closing stops the clock first and waits for the run to be recorded.
    await server.close({ drainTimeoutMs: 1_000 });
    expect(isGatewayRunning(home())).toBe(false);
    expect(existsSync(join(home(), 'gateway.pid'))).toBe(false);
    const store = openSqliteJobStore(home());
    try {
      const [record] = await store.listRuns(job.id);
      expect(record).toMatchObject({ status: 'ok', output: 'Daily report: all systems up.' });
      expect(record?.deliveryError).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it('sends the deliveries queued while no gateway ran when it starts', async () => {
    const store = openSqliteJobStore(home());
    try {
      const job = await dueJob(store, { nextRunAt: null, enabled: false });
      await new QueueingCronDelivery(store).deliver(
        { platform: 'loopback', chatId: 'room-2' },
        'Queued report: 3 new invoices.',
        job,
      );
      expect(await store.listPendingDeliveries()).toHaveLength(1);
    } finally {
      await store.close();
    }

    const { adapter, server } = await gatewayOver(script());
    await server.start();
    const text = await adapter.waitForSent((sent) => sent.includes('3 new invoices'));
    expect(text).toBe('Queued report: 3 new invoices.');
    expect(adapter.sent.find((message) => message.text === text)?.target.chatId).toBe('room-2');
    expect(await server.cron?.store.listPendingDeliveries()).toEqual([]);
  });

  it('a job created with cronjob in a chat records that chat and thread as its origin', async () => {
    const { adapter, server } = await gatewayOver(
      script()
        .toolCall('cronjob', {
          action: 'create',
          schedule: 'every 1h',
          prompt: 'Summarize the new support tickets.',
          name: 'tickets',
        })
        .next()
        .text('Scheduled hourly.'),
    );
    await server.start();
    await adapter.say('summarize tickets every hour', {
      chatId: 'room-7',
      threadId: 'support',
      isDirect: false,
    });
    await adapter.waitForSent((sent) => sent.includes('Scheduled hourly.'));

    const jobs = (await server.cron?.store.list()) ?? [];
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({
      name: 'tickets',
      deliver: { kind: 'origin' },
      origin: { platform: 'loopback', chatId: 'room-7', threadId: 'support' },
    });
    expect(jobs[0]?.origin?.sessionId).toEqual(expect.any(String));
  });

  it('cronjob run in a chat runs the job now, not at the next tick; the answer reaches the job’s chat', async () => {
    const { adapter, server } = await gatewayOver(script());
    const cron = server.cron;
    if (!cron) throw new Error('the gateway has no cron service');
    const job = await dueJob(cron.store, {
      prompt: 'Compile the digest of open pull requests.',
      nextRunAt: null,
      deliver: { kind: 'chat', platform: 'loopback', chatId: 'room-9' },
    });
    model?.reset(
      script()
        .toolCall('cronjob', { action: 'run', job_id: job.id })
        .match({ lastUserIncludes: 'run the digest now' })
        .next()
        .text('Digest: 2 pull requests wait for review.')
        .match({ lastUserIncludes: 'Compile the digest' })
        .next()
        .text('Started it.')
        .match({ lastUserIncludes: 'run the digest now' }),
    );
    await server.start();
    await adapter.say('run the digest now', { chatId: 'room-1' });
    await adapter.waitForSent((sent) => sent.includes('Started it.'));
    const digest = await adapter.waitForSent((sent) => sent.includes('2 pull requests'));
    expect(adapter.sent.find((message) => message.text === digest)?.target.chatId).toBe('room-9');
  });
});
