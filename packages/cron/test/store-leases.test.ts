/**
 * The job store's leases, runs and pending deliveries with two stores on one database, on SQLite
 * (two connections to one state.db) and PostgreSQL (two pools on one database) alike.
 */
import { describe, expect, it } from 'vitest';
import type { NewJob } from '../src/index.js';
import { newJobDueAt } from './support/new-job.js';
import { STORE_BACKENDS, useStorePair } from './support/store-backends.js';

const T0 = Date.parse('2026-05-04T12:00:00Z');
const LEASE = 300_000;

/** A job due at `T0` unless overridden. */
const newJob = (overrides: Partial<NewJob> = {}): NewJob => newJobDueAt(T0, overrides);

const lease = (owner: string, now: number, leaseMs = LEASE) => ({ owner, now, leaseMs });

for (const backend of STORE_BACKENDS) {
  describe.runIf(backend.available)(`${backend.name} job store: leases ${backend.note}`, () => {
    const stores = useStorePair(backend);
    const a = () => stores.current.a;
    const b = () => stores.current.b;

    describe('claimDue', () => {
      it('claims enabled due jobs oldest due first, up to the limit', async () => {
        const later = await a().create(newJob({ nextRunAt: T0 }), T0);
        const first = await a().create(newJob({ nextRunAt: T0 - 5000 }), T0);
        await a().create(newJob({ nextRunAt: T0 + 1 }), T0); // not due
        await a().create(newJob({ nextRunAt: T0 - 9000, enabled: false }), T0); // paused
        await a().create(newJob({ nextRunAt: null }), T0); // never again
        const third = await a().create(newJob({ nextRunAt: T0 - 1 }), T0);
        expect((await a().claimDue(lease('A', T0), 2)).map((job) => job.id)).toEqual([
          first.id,
          third.id,
        ]);
        expect((await a().claimDue(lease('A', T0), 5)).map((job) => job.id)).toEqual([later.id]);
        expect(await a().claimDue(lease('A', T0), 5)).toEqual([]);
      });

      it('never hands the same job to two connections while the lease holds', async () => {
        for (let i = 0; i < 10; i++) await a().create(newJob({ nextRunAt: T0 - i }), T0);
        const byA = await a().claimDue(lease('A', T0), 6);
        const byB = await b().claimDue(lease('B', T0), 10);
        expect(byA).toHaveLength(6);
        expect(byB).toHaveLength(4);
        const ids = new Set([...byA, ...byB].map((job) => job.id));
        expect(ids.size).toBe(10);
        expect(await a().claimDue(lease('A', T0 + LEASE - 1), 10)).toEqual([]);
      });

      it('many concurrent claims from two stores take each of 50 due jobs exactly once', async () => {
        const ids: string[] = [];
        for (let i = 0; i < 50; i++)
          ids.push((await a().create(newJob({ nextRunAt: T0 - i }), T0)).id);
        // 24 claims in flight at once, alternating stores, each asking for a few jobs.
        const claims = Array.from({ length: 24 }, (_, i) =>
          (i % 2 === 0 ? a() : b()).claimDue(lease(i % 2 === 0 ? 'A' : 'B', T0), 3),
        );
        const claimed = (await Promise.all(claims)).flat().map((job) => job.id);
        // 24 × 3 slots for 50 jobs: every job is claimed, none twice.
        expect(claimed).toHaveLength(50);
        expect([...claimed].sort()).toEqual([...ids].sort());
        expect(await b().claimDue(lease('B', T0), 50)).toEqual([]);
      });

      it('a lease that was never finished expires, and then another owner claims the job', async () => {
        const job = await a().create(newJob(), T0);
        expect(await a().claimDue(lease('A', T0), 1)).toHaveLength(1);
        // A "dies" here: it never renews nor finishes.
        expect(await b().claimDue(lease('B', T0 + LEASE - 1), 1)).toEqual([]);
        expect(await b().claim(job.id, lease('B', T0 + LEASE - 1))).toBeUndefined();
        expect((await b().claimDue(lease('B', T0 + LEASE), 1)).map((j) => j.id)).toEqual([job.id]);
      });

      it('a renewed lease keeps the job from other owners', async () => {
        const job = await a().create(newJob(), T0);
        await a().claimDue(lease('A', T0), 1);
        expect(await a().renewLease(job.id, lease('A', T0 + LEASE / 2))).toBe(true);
        expect(await b().claimDue(lease('B', T0 + LEASE), 1)).toEqual([]);
        expect(await b().renewLease(job.id, lease('B', T0 + LEASE))).toBe(false);
        expect(await b().claimDue(lease('B', T0 + LEASE / 2 + LEASE), 1)).toHaveLength(1);
        expect(await a().renewLease(job.id, lease('A', T0 + 2 * LEASE))).toBe(false);
      });

      it('releaseLease frees only the caller’s lease', async () => {
        const job = await a().create(newJob(), T0);
        await a().claimDue(lease('A', T0), 1);
        await b().releaseLease(job.id, 'B');
        expect(await b().claimDue(lease('B', T0), 1)).toEqual([]);
        await a().releaseLease(job.id, 'A');
        expect(await b().claimDue(lease('B', T0), 1)).toHaveLength(1);
      });
    });

    describe('claim (run now)', () => {
      it('claims a paused or not-yet-due job, once', async () => {
        const job = await a().create(newJob({ enabled: false, nextRunAt: T0 + 86_400_000 }), T0);
        expect((await a().claim(job.id, lease('A', T0)))?.id).toBe(job.id);
        expect(await a().claim(job.id, lease('A', T0))).toBeUndefined();
        expect(await b().claim(job.id, lease('B', T0))).toBeUndefined();
        expect(await a().claim('missing', lease('A', T0))).toBeUndefined();
      });
    });

    describe('finishRun', () => {
      const outcome = {
        status: 'ok' as const,
        output: 'done',
        outputPath: '/o.md',
        sessionId: 's',
      };

      it('records the run, the job’s last state and next run, and frees the lease', async () => {
        const job = await a().create(newJob(), T0);
        await a().claimDue(lease('A', T0), 1);
        const finished = await a().finishRun(job.id, {
          owner: 'A',
          startedAt: T0,
          finishedAt: T0 + 500,
          outcome,
          nextRunAt: T0 + 3_600_500,
          enabled: true,
        });
        expect(finished).toMatchObject({
          lastRunAt: T0,
          lastStatus: 'ok',
          lastError: null,
          failureStreak: 0,
          repeat: { times: null, completed: 1 },
          nextRunAt: T0 + 3_600_500,
          enabled: true,
        });
        expect(await a().listRuns(job.id)).toEqual([
          { jobId: job.id, startedAt: T0, finishedAt: T0 + 500, ...outcome },
        ]);
        // The lease is free: another owner can run it now.
        expect(await b().claim(job.id, lease('B', T0 + 501))).toMatchObject({ id: job.id });
      });

      it('counts failures in a row and resets the streak on success', async () => {
        const job = await a().create(newJob(), T0);
        const run = async (status: 'ok' | 'silent' | 'error' | 'blocked', at: number) => {
          await a().claim(job.id, lease('A', at));
          return a().finishRun(job.id, {
            owner: 'A',
            startedAt: at,
            finishedAt: at + 1,
            outcome: { status, output: '', ...(status === 'error' ? { error: 'boom' } : {}) },
            nextRunAt: at + 60_000,
            enabled: true,
          });
        };
        expect((await run('error', T0))?.failureStreak).toBe(1);
        expect((await run('blocked', T0 + 10))?.failureStreak).toBe(2);
        const third = await run('error', T0 + 20);
        expect(third).toMatchObject({ failureStreak: 3, lastStatus: 'error', lastError: 'boom' });
        expect(await run('silent', T0 + 30)).toMatchObject({ failureStreak: 0, lastError: null });
        expect((await a().listRuns(job.id)).map((r) => r.status)).toEqual([
          'silent',
          'error',
          'blocked',
          'error',
        ]);
        expect((await a().get(job.id))?.repeat.completed).toBe(4);
      });

      it('a run whose lease was re-claimed by another owner does not clobber the newer claim', async () => {
        const job = await a().create(newJob(), T0);
        await a().claimDue(lease('A', T0), 1);
        // A stalls past its lease; B claims the job and is still running it.
        expect(await b().claimDue(lease('B', T0 + LEASE), 1)).toHaveLength(1);
        const stale = await a().finishRun(job.id, {
          owner: 'A',
          startedAt: T0,
          finishedAt: T0 + LEASE + 10,
          outcome: { status: 'error', output: '', error: 'late' },
          nextRunAt: null,
          enabled: false,
        });
        // The job state is untouched (still enabled, still B's), but the run is in the history.
        expect(stale).toMatchObject({
          enabled: true,
          nextRunAt: T0,
          lastStatus: null,
          failureStreak: 0,
        });
        expect((await a().listRuns(job.id)).map((r) => r.error)).toEqual(['late']);
        expect(await b().renewLease(job.id, lease('B', T0 + LEASE + 20))).toBe(true);
        const fresh = await b().finishRun(job.id, {
          owner: 'B',
          startedAt: T0 + LEASE,
          finishedAt: T0 + LEASE + 30,
          outcome: { status: 'ok', output: 'fine' },
          nextRunAt: T0 + 2 * LEASE,
          enabled: true,
        });
        expect(fresh).toMatchObject({
          lastStatus: 'ok',
          nextRunAt: T0 + 2 * LEASE,
          failureStreak: 0,
        });
      });

      it('applies when the lease is free (released, or never taken)', async () => {
        const job = await a().create(newJob(), T0);
        const finished = await a().finishRun(job.id, {
          owner: 'A',
          startedAt: T0,
          finishedAt: T0 + 1,
          outcome: { status: 'ok', output: '' },
          nextRunAt: null,
          enabled: false,
        });
        expect(finished).toMatchObject({ enabled: false, nextRunAt: null, lastStatus: 'ok' });
      });

      it('returns undefined for a job removed meanwhile', async () => {
        const job = await a().create(newJob(), T0);
        await a().claim(job.id, lease('A', T0));
        await b().remove(job.id);
        const finished = await a().finishRun(job.id, {
          owner: 'A',
          startedAt: T0,
          finishedAt: T0 + 1,
          outcome: { status: 'ok', output: '' },
          nextRunAt: null,
          enabled: true,
        });
        expect(finished).toBeUndefined();
        expect(await a().listRuns(job.id)).toEqual([]);
      });

      it('keeps the last 200 runs of a job, newest first', async () => {
        const job = await a().create(newJob(), T0);
        for (let i = 0; i < 205; i++) {
          await a().finishRun(job.id, {
            owner: 'A',
            startedAt: T0 + i,
            finishedAt: T0 + i,
            outcome: { status: 'ok', output: String(i) },
            nextRunAt: T0,
            enabled: true,
          });
        }
        const runs = await a().listRuns(job.id);
        expect(runs).toHaveLength(200);
        expect(runs[0]?.output).toBe('204');
        expect(runs[199]?.output).toBe('5');
        expect((await a().listRuns(job.id, 3)).map((r) => r.output)).toEqual(['204', '203', '202']);
      });
    });

    describe('pending deliveries and delivery errors', () => {
      it('queues, lists oldest first, counts failures and removes', async () => {
        const job = await a().create(newJob(), T0);
        const first = await a().addPendingDelivery(
          {
            jobId: job.id,
            target: { platform: 'telegram', chatId: '1', threadId: '2' },
            text: 'one',
          },
          T0,
        );
        await b().addPendingDelivery(
          { jobId: job.id, target: { platform: 'slack', chatId: 'C' }, text: 'two' },
          T0 + 1,
        );
        expect(first).toEqual({
          id: first.id,
          jobId: job.id,
          target: { platform: 'telegram', chatId: '1', threadId: '2' },
          text: 'one',
          createdAt: T0,
          attempts: 0,
          lastError: null,
        });
        await a().notePendingFailure(first.id, 'adapter down');
        await a().notePendingFailure(first.id, 'still down');
        const listed = await b().listPendingDeliveries();
        expect(listed.map((p) => p.text)).toEqual(['one', 'two']);
        expect(listed[0]).toMatchObject({ attempts: 2, lastError: 'still down' });
        await a().removePendingDelivery(first.id);
        expect((await a().listPendingDeliveries()).map((p) => p.text)).toEqual(['two']);
      });

      it('sets and clears the job’s last delivery error', async () => {
        const job = await a().create(newJob(), T0);
        await a().setDeliveryError(job.id, 'chat not found');
        expect((await b().get(job.id))?.lastDeliveryError).toBe('chat not found');
        await a().setDeliveryError(job.id, null);
        expect((await b().get(job.id))?.lastDeliveryError).toBeNull();
      });
    });
  });
}
