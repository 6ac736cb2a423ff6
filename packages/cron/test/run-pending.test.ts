import { describe, expect, it } from 'vitest';
import {
  CronJobExecutor,
  deliverPendingJobs,
  MAX_PENDING_AGE_MS,
  QUEUED_DELIVERY_NOTE,
  QueueingCronDelivery,
} from '../src/index.js';
import {
  createJob,
  neverAborted,
  openTestStore,
  RecordingDelivery,
  ScriptedAgent,
} from './support/doubles.js';
import { MemoryJobStore } from './support/memory-job-store.js';

const NOW = Date.UTC(2026, 4, 1, 9);

async function queuedRun(answer = 'morning digest') {
  const store = openTestStore();
  const executor = new CronJobExecutor({
    store,
    agent: new ScriptedAgent({ text: answer }),
    delivery: new QueueingCronDelivery(store, () => NOW),
    hermesHome: process.env.HERMES_HOME ?? '',
    loadSkill: async () => undefined,
    clock: () => NOW,
  });
  const job = await createJob(store);
  const outcome = await executor.execute(job, neverAborted());
  return { store, job, outcome };
}

describe('pending deliveries', () => {
  it('queues the answer when no gateway runs, and says so', async () => {
    const { store, job, outcome } = await queuedRun();
    expect(outcome).toMatchObject({ status: 'ok', deliveryError: QUEUED_DELIVERY_NOTE });
    expect(await store.listPendingDeliveries()).toEqual([
      {
        id: expect.any(Number),
        jobId: job.id,
        target: { platform: 'telegram', chatId: '4242' },
        text: 'morning digest',
        createdAt: NOW,
        attempts: 0,
        lastError: null,
      },
    ]);
    expect((await store.get(job.id))?.lastDeliveryError).toBe(QUEUED_DELIVERY_NOTE);
  });

  it('sends queued deliveries through a live delivery, removes them and clears the error', async () => {
    const { store, job } = await queuedRun();
    const gateway = new RecordingDelivery();
    const result = await deliverPendingJobs(store, gateway, { clock: () => NOW + 60_000 });
    expect(result).toEqual({ sent: 1, failed: 0, dropped: 0 });
    expect(gateway.sent).toEqual([
      { target: { platform: 'telegram', chatId: '4242' }, text: 'morning digest', jobId: job.id },
    ]);
    expect(await store.listPendingDeliveries()).toEqual([]);
    expect((await store.get(job.id))?.lastDeliveryError).toBeNull();
  });

  it('counts a failed send and keeps it; drops it after maxAttempts', async () => {
    const { store, job } = await queuedRun();
    const gateway = new RecordingDelivery();
    gateway.failWith = 'adapter offline';
    const clock = () => NOW + 1;
    expect(await deliverPendingJobs(store, gateway, { clock, maxAttempts: 2 })).toEqual({
      sent: 0,
      failed: 1,
      dropped: 0,
    });
    expect((await store.listPendingDeliveries())[0]).toMatchObject({
      attempts: 1,
      lastError: 'adapter offline',
    });
    await deliverPendingJobs(store, gateway, { clock, maxAttempts: 2 });
    expect(await deliverPendingJobs(store, gateway, { clock, maxAttempts: 2 })).toEqual({
      sent: 0,
      failed: 0,
      dropped: 1,
    });
    expect(await store.listPendingDeliveries()).toEqual([]);
    expect((await store.get(job.id))?.lastDeliveryError).toBe(
      'dropped a queued delivery: failed 2 times',
    );
  });

  it('drops a delivery older than a day; a removed job takes its queue with it', async () => {
    const { store, job } = await queuedRun();
    const gateway = new RecordingDelivery();
    const stale = await deliverPendingJobs(store, gateway, {
      clock: () => NOW + MAX_PENDING_AGE_MS + 1,
    });
    expect(stale).toEqual({ sent: 0, failed: 0, dropped: 1 });
    expect((await store.get(job.id))?.lastDeliveryError).toBe(
      'dropped a queued delivery: older than a day',
    );

    await store.addPendingDelivery(
      { jobId: job.id, target: { platform: 'x', chatId: '1' }, text: 't' },
      NOW,
    );
    await store.remove(job.id);
    await deliverPendingJobs(store, gateway, { clock: () => NOW });
    expect(gateway.sent).toEqual([]);
    expect(await store.listPendingDeliveries()).toEqual([]);
  });

  it('drops a delivery whose job is gone from a store that keeps it', async () => {
    // SqliteJobStore deletes a job's queue with it; a store that does not (or a removal racing
    // the resend) must still not send for a job that no longer exists.
    const store = new MemoryJobStore();
    const job = await createJob(store);
    await store.addPendingDelivery(
      { jobId: job.id, target: { platform: 'x', chatId: '1' }, text: 't' },
      NOW,
    );
    await store.remove(job.id);
    const gateway = new RecordingDelivery();
    expect(await deliverPendingJobs(store, gateway, { clock: () => NOW })).toEqual({
      sent: 0,
      failed: 0,
      dropped: 1,
    });
    expect(gateway.sent).toEqual([]);
    expect(await store.listPendingDeliveries()).toEqual([]);
  });

  it('does nothing through a delivery that is not live', async () => {
    const { store } = await queuedRun();
    const result = await deliverPendingJobs(store, new QueueingCronDelivery(store));
    expect(result).toEqual({ sent: 0, failed: 0, dropped: 0 });
    expect(await store.listPendingDeliveries()).toHaveLength(1);
  });
});
