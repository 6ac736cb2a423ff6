/**
 * The job store's jobs — create, read, update, remove, bad rows — on SQLite and PostgreSQL alike,
 * plus what is particular to each: state.db's schema guard, and PostgreSQL's migrations.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type NewJob, openSqliteJobStore, SqliteJobStore } from '../src/index.js';
import { newJobDueAt } from './support/new-job.js';
import { STORE_BACKENDS, useStorePair } from './support/store-backends.js';

const T0 = Date.parse('2026-05-04T12:00:00Z');

/** A job due at `T0` unless overridden. */
const newJob = (overrides: Partial<NewJob> = {}): NewJob => newJobDueAt(T0, overrides);

for (const backend of STORE_BACKENDS) {
  describe.runIf(backend.available)(`${backend.name} job store: jobs ${backend.note}`, () => {
    const stores = useStorePair(backend);
    const store = () => stores.current.a;

    it('creates a job with defaults and reads every field back', async () => {
      const created = await store().create(
        newJob({
          origin: { platform: 'telegram', chatId: '42', threadId: '7', sessionId: 's1' },
          deliver: { kind: 'chat', platform: 'slack', chatId: 'C1' },
          skills: ['mail', 'summary'],
          model: 'anthropic/claude',
          enabledToolsets: ['web'],
          workdir: '/srv/work',
        }),
        T0,
      );
      expect(created.id).toMatch(/^[0-9a-f]{8}$/);
      expect(created).toMatchObject({
        name: 'inbox',
        repeat: { times: null, completed: 0 },
        enabled: true,
        nextRunAt: T0,
        lastRunAt: null,
        lastStatus: null,
        lastError: null,
        lastDeliveryError: null,
        failureStreak: 0,
        createdAt: T0,
        updatedAt: T0,
      });
      expect(await store().get(created.id)).toEqual(created);
      expect(created.origin).toEqual({
        platform: 'telegram',
        chatId: '42',
        threadId: '7',
        sessionId: 's1',
      });
      expect(created.skills).toEqual(['mail', 'summary']);
      expect(created.enabledToolsets).toEqual(['web']);
    });

    it('omits optional fields that were not given', async () => {
      const job = await store().create(newJob(), T0);
      expect('origin' in job).toBe(false);
      expect('model' in job).toBe(false);
      expect('enabledToolsets' in job).toBe(false);
      expect('workdir' in job).toBe(false);
      expect(job.skills).toEqual([]);
    });

    it('a one-shot repeats once by default; an explicit repeat count is kept', async () => {
      const once = await store().create(
        newJob({ schedule: { kind: 'once', runAt: T0 }, scheduleText: '30m' }),
        T0,
      );
      expect(once.repeat).toEqual({ times: 1, completed: 0 });
      const thrice = await store().create(newJob({ repeatTimes: 3 }), T0);
      expect(thrice.repeat).toEqual({ times: 3, completed: 0 });
    });

    it('gives every job its own id', async () => {
      const ids = new Set<string>();
      for (let i = 0; i < 200; i++) ids.add((await store().create(newJob(), T0 + i)).id);
      expect(ids.size).toBe(200);
    });

    it('lists jobs oldest first', async () => {
      const b = await store().create(newJob({ name: 'b' }), T0 + 1);
      const a = await store().create(newJob({ name: 'a' }), T0);
      expect((await store().list()).map((job) => job.id)).toEqual([a.id, b.id]);
    });

    it('updates fields, clears overrides with null, and bumps updatedAt', async () => {
      const job = await store().create(
        newJob({ model: 'm1', workdir: '/w', enabledToolsets: ['x'] }),
        T0,
      );
      const updated = await store().update(
        job.id,
        {
          name: 'renamed',
          schedule: { kind: 'cron', expr: '0 9 * * *' },
          scheduleText: '0 9 * * *',
          repeatTimes: 5,
          deliver: { kind: 'local' },
          skills: ['s'],
          model: null,
          enabledToolsets: null,
          workdir: null,
          enabled: false,
          nextRunAt: null,
        },
        T0 + 5,
      );
      expect(updated).toMatchObject({
        name: 'renamed',
        prompt: 'Summarize my inbox',
        schedule: { kind: 'cron', expr: '0 9 * * *' },
        repeat: { times: 5, completed: 0 },
        deliver: { kind: 'local' },
        skills: ['s'],
        enabled: false,
        nextRunAt: null,
        updatedAt: T0 + 5,
        createdAt: T0,
      });
      expect(updated && 'model' in updated).toBe(false);
      expect(updated && 'workdir' in updated).toBe(false);
      expect(updated && 'enabledToolsets' in updated).toBe(false);
      expect(await store().get(job.id)).toEqual(updated);
      expect(await store().update('nope', { name: 'x' }, T0)).toBeUndefined();
    });

    it('removes a job with its runs and pending deliveries', async () => {
      const job = await store().create(newJob(), T0);
      const claimed = await store().claim(job.id, { owner: 'a', now: T0, leaseMs: 1000 });
      expect(claimed?.id).toBe(job.id);
      await store().finishRun(job.id, {
        owner: 'a',
        startedAt: T0,
        finishedAt: T0 + 1,
        outcome: { status: 'ok', output: 'hi' },
        nextRunAt: T0 + 60_000,
        enabled: true,
      });
      await store().addPendingDelivery(
        { jobId: job.id, target: { platform: 't', chatId: '1' }, text: 'x' },
        T0,
      );
      expect(await store().remove(job.id)).toBe(true);
      expect(await store().get(job.id)).toBeUndefined();
      expect(await store().listRuns(job.id)).toEqual([]);
      expect(await store().listPendingDeliveries()).toEqual([]);
      expect(await store().remove(job.id)).toBe(false);
    });

    it('a row with corrupt JSON is skipped by list() and named by get()', async () => {
      const good = await store().create(newJob({ name: 'good' }), T0);
      const bad = await store().create(newJob({ name: 'bad' }), T0 + 1);
      await stores.current.setColumn(bad.id, 'schedule', '{not json');
      expect((await store().list()).map((job) => job.id)).toEqual([good.id]);
      await expect(store().get(bad.id)).rejects.toMatchObject({
        code: 'cron.bad_job_row',
        message: expect.stringContaining(bad.id),
      });
    });

    it('a due job with a corrupt row is paused by claimDue instead of blocking the others', async () => {
      const bad = await store().create(newJob({ name: 'bad' }), T0 - 10);
      const good = await store().create(newJob({ name: 'good' }), T0);
      await stores.current.setColumn(bad.id, 'deliver', '"nope"');
      const claimed = await store().claimDue({ owner: 'a', now: T0, leaseMs: 1000 }, 1);
      expect(claimed.map((job) => job.id)).toEqual([good.id]);
      const row = await stores.current.rawState(bad.id);
      expect(row.enabled).toBe(false);
      expect(row.leaseOwner).toBeNull();
      expect(row.lastError).toMatch(/unreadable/);
    });
  });
}

describe('SqliteJobStore state.db', () => {
  let home: string;
  let store: SqliteJobStore;

  beforeEach(() => {
    home = process.env.HERMES_HOME ?? '';
    store = openSqliteJobStore(home);
  });

  afterEach(async () => {
    await store.close();
  });

  it('opens HERMES_HOME/state.db in WAL mode with the cron tables', () => {
    expect(existsSync(join(home, 'state.db'))).toBe(true);
    const db = new Database(join(home, 'state.db'), { readonly: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      const tables = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'cron_%'")
        .pluck()
        .all();
      expect(tables.sort()).toEqual(['cron_jobs', 'cron_pending_deliveries', 'cron_runs']);
    } finally {
      db.close();
    }
  });

  it('leaves user_version (owned by @hermes/state migrations) as it found it', async () => {
    await store.close();
    const path = join(home, 'state.db');
    const db = new Database(path);
    db.pragma('user_version = 7');
    db.close();
    store = new SqliteJobStore({ path });
    await store.create(newJob(), T0);
    const check = new Database(path, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(7);
    check.close();
  });

  it('a fresh state.db keeps user_version 0 so @hermes/state still migrates it', async () => {
    const db = new Database(join(home, 'state.db'), { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(0);
    db.close();
  });

  it('refuses a file that is not SQLite with a clear error', async () => {
    const { writeFileSync } = await import('node:fs');
    const path = join(home, 'broken.db');
    writeFileSync(path, 'this is not a database, just text that is long enough');
    expect(() => new SqliteJobStore({ path })).toThrow(
      expect.objectContaining({ code: 'cron.store_open_failed' }),
    );
  });

  it('close() is idempotent', async () => {
    await store.close();
    await store.close();
  });
});
