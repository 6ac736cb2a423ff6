/**
 * What is particular to PostgresJobStore: its migrations (applied once however many processes
 * open the store at the same time, in the database's schema), and that it never closes the
 * database it was given.
 */
import { PostgresDatabase } from '@hermes/state/postgres';
import {
  createTestDatabase,
  NO_POSTGRES,
  postgresTestUrl,
  type TestDatabase,
} from '@hermes/testkit/postgres';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteJobStore } from '../src/index.js';
import { JOB_STORE_COMPONENT, JOB_STORE_MIGRATIONS, PostgresJobStore } from '../src/postgres.js';
import { newJobDueAt } from './support/new-job.js';

const T0 = Date.parse('2026-05-04T12:00:00Z');

describe.runIf(postgresTestUrl())(`PostgresJobStore ${NO_POSTGRES}`, () => {
  let testDatabase: TestDatabase;
  const open: PostgresDatabase[] = [];
  let schemas = 0;

  const connect = async (schema: string) => {
    const database = await PostgresDatabase.connect({ url: testDatabase.url, schema, poolSize: 2 });
    open.push(database);
    return database;
  };

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
  });
  afterEach(async () => {
    for (const database of open.splice(0)) await database.close();
  });
  afterAll(async () => {
    await testDatabase?.drop();
  });

  it('creates its tables in the database’s schema, migrating once for many openers', async () => {
    const schema = `cron_pg_${++schemas}`;
    const databases = await Promise.all([connect(schema), connect(schema), connect(schema)]);
    await Promise.all(databases.map((database) => PostgresJobStore.open(database)));
    const [database] = databases;
    const tables = await database.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables
       WHERE table_schema = $1 AND table_name LIKE 'cron%' ORDER BY table_name`,
      [schema],
    );
    expect(tables.map((t) => t.table_name)).toEqual([
      'cron_jobs',
      'cron_pending_deliveries',
      'cron_runs',
    ]);
    const applied = await database.query<{ version: number }>(
      'SELECT version FROM hermes_migrations WHERE component = $1 ORDER BY version',
      [JOB_STORE_COMPONENT],
    );
    expect(applied.map((row) => row.version)).toEqual(JOB_STORE_MIGRATIONS.map((m) => m.version));
    // Opening again applies nothing new.
    expect(await database.migrate(JOB_STORE_COMPONENT, JOB_STORE_MIGRATIONS)).toEqual([]);
  });

  it('keeps stores in different schemas apart', async () => {
    const one = await PostgresJobStore.open(await connect(`cron_pg_${++schemas}`));
    const other = await PostgresJobStore.open(await connect(`cron_pg_${++schemas}`));
    const job = await one.create(newJobDueAt(T0), T0);
    expect(await other.get(job.id)).toBeUndefined();
    expect(await other.claimDue({ owner: 'B', now: T0, leaseMs: 1000 }, 10)).toEqual([]);
    expect((await one.list()).map((j) => j.id)).toEqual([job.id]);
  });

  it('close() marks the store closed, is idempotent, and leaves the database open', async () => {
    const database = await connect(`cron_pg_${++schemas}`);
    const store = await PostgresJobStore.open(database);
    const job = await store.create(newJobDueAt(T0), T0);
    await store.close();
    await store.close();
    await expect(store.get(job.id)).rejects.toMatchObject({
      code: 'cron.store_failed',
      message: expect.stringContaining('closed'),
    });
    // The owner's database still works, and a new store on it sees the job.
    const again = await PostgresJobStore.open(database);
    expect((await again.get(job.id))?.id).toBe(job.id);
  });

  it('importJob copies a SQLite job as it stands, with its runs and pending deliveries, once', async () => {
    const sqlite = openSqliteJobStore(process.env.HERMES_HOME ?? '');
    const job = await sqlite.create(
      newJobDueAt(T0, {
        model: 'm-2',
        skills: ['inbox-rules'],
        origin: { platform: 'telegram', chatId: '42', sessionId: 's-1' },
        repeatTimes: 5,
      }),
      T0,
    );
    for (const [i, status] of (['ok', 'error'] as const).entries()) {
      await sqlite.claim(job.id, { owner: 'a', now: T0 + i, leaseMs: 1000 });
      await sqlite.finishRun(job.id, {
        owner: 'a',
        startedAt: T0 + i * 10,
        finishedAt: T0 + i * 10 + 5,
        outcome: { status, output: `run ${i}`, ...(status === 'error' ? { error: 'boom' } : {}) },
        nextRunAt: T0 + 3_600_000,
        enabled: true,
      });
    }
    await sqlite.addPendingDelivery(
      { jobId: job.id, target: { platform: 'telegram', chatId: '42' }, text: 'owed' },
      T0 + 30,
    );
    await sqlite.notePendingFailure((await sqlite.listPendingDeliveries())[0]?.id ?? 0, 'offline');
    const source = await sqlite.get(job.id);
    const runs = (await sqlite.listRuns(job.id)).reverse();
    const pending = await sqlite.listPendingDeliveries();
    await sqlite.close();

    const target = await PostgresJobStore.open(await connect(`cron_pg_${++schemas}`));
    if (!source) throw new Error('the SQLite job is gone');
    expect(await target.importJob(source, { runs, pending })).toBe('imported');
    expect(await target.get(job.id)).toEqual(source);
    expect(source.repeat).toEqual({ times: 5, completed: 2 });
    expect(await target.listRuns(job.id)).toEqual([...runs].reverse());
    const copied = await target.listPendingDeliveries();
    expect(copied.map(({ id: _id, ...rest }) => rest)).toEqual(
      pending.map(({ id: _id, ...rest }) => rest),
    );
    expect(copied[0]).toMatchObject({ attempts: 1, lastError: 'offline' });
    // A second copy finds it there and writes nothing.
    expect(await target.importJob(source, { runs, pending })).toBe('exists');
    expect(await target.listRuns(job.id)).toHaveLength(2);
    expect(await target.listPendingDeliveries()).toHaveLength(1);
    // The copy is claimable on its schedule like any job.
    const due = await target.claimDue({ owner: 'b', now: T0 + 3_600_000, leaseMs: 1000 }, 10);
    expect(due.map((j) => j.id)).toEqual([job.id]);
  });

  it('reports a database it cannot migrate as cron.store_open_failed', async () => {
    const database = await connect(`cron_pg_${++schemas}`);
    // A table of the same name that is not ours makes the migration fail.
    await database.query('CREATE TABLE cron_jobs (x INTEGER)');
    await expect(PostgresJobStore.open(database)).rejects.toMatchObject({
      code: 'cron.store_open_failed',
      message: expect.stringContaining('cron_jobs'),
    });
  });
});
