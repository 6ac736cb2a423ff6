/** CronScheduler on a real SqliteJobStore with a fake clock: next state, repeat, bounds, stop. */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type CronJob,
  CronScheduler,
  type JobExecutor,
  type LeaseRequest,
  type NewJob,
  openSqliteJobStore,
  type RunOutcome,
  SqliteJobStore,
} from '../src/index.js';

const T0 = Date.parse('2026-05-04T09:00:00Z');
const MIN = 60_000;

function newJob(overrides: Partial<NewJob> = {}): NewJob {
  return {
    name: 'job',
    prompt: 'do it',
    schedule: { kind: 'interval', minutes: 60 },
    scheduleText: 'every 1h',
    deliver: { kind: 'local' },
    nextRunAt: T0,
    ...overrides,
  };
}

/** Yields to the event loop `n` times, so concurrent runs interleave without any timer. */
async function yieldTurns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Records which jobs ran, and how many ran at once. */
class RecordingExecutor implements JobExecutor {
  readonly ran: string[] = [];
  active = 0;
  maxActive = 0;
  constructor(
    private readonly behave: (
      job: CronJob,
      signal: AbortSignal,
    ) => Promise<RunOutcome> = async () => ({ status: 'ok', output: 'fine' }),
  ) {}

  async execute(job: CronJob, signal: AbortSignal): Promise<RunOutcome> {
    this.ran.push(job.id);
    this.active++;
    this.maxActive = Math.max(this.maxActive, this.active);
    try {
      await yieldTurns(3);
      return await this.behave(job, signal);
    } finally {
      this.active--;
    }
  }
}

let store: SqliteJobStore;
let now: number;
const clock = () => now;

beforeEach(() => {
  store = openSqliteJobStore(process.env.HERMES_HOME ?? '');
  now = T0;
});

afterEach(async () => {
  await store.close();
});

function scheduler(
  executor: JobExecutor,
  extra: Partial<ConstructorParameters<typeof CronScheduler>[0]> = {},
) {
  return new CronScheduler({ store, executor, clock, owner: 'test', timezone: 'UTC', ...extra });
}

describe('CronScheduler.tick', () => {
  it('runs due jobs only, records each run and schedules the next from the finish time', async () => {
    const due = await store.create(newJob(), T0 - 1);
    const notDue = await store.create(newJob({ nextRunAt: T0 + 10 * MIN }), T0);
    const executor = new RecordingExecutor(async () => {
      now += 5000; // the run takes five seconds
      return { status: 'ok', output: 'fine' };
    });
    const records = await scheduler(executor).tick();
    expect(executor.ran).toEqual([due.id]);
    expect(records).toEqual([
      { jobId: due.id, startedAt: T0, finishedAt: T0 + 5000, status: 'ok', output: 'fine' },
    ]);
    expect(await store.get(due.id)).toMatchObject({
      lastRunAt: T0,
      lastStatus: 'ok',
      nextRunAt: T0 + 5000 + 60 * MIN,
      repeat: { times: null, completed: 1 },
      enabled: true,
    });
    expect((await store.get(notDue.id))?.lastRunAt).toBeNull();
    expect(await store.listRuns(due.id)).toHaveLength(1);
  });

  it('a missed interval backlog runs once, and the next run counts from now', async () => {
    const job = await store.create(newJob({ nextRunAt: T0 - 5 * 60 * MIN }), T0);
    const executor = new RecordingExecutor();
    const s = scheduler(executor);
    await s.tick();
    await s.tick();
    expect(executor.ran).toEqual([job.id]);
    expect((await store.get(job.id))?.nextRunAt).toBe(T0 + 60 * MIN);
  });

  it('a cron job is next due at the expression’s next match after the finish', async () => {
    const job = await store.create(
      newJob({ schedule: { kind: 'cron', expr: '0 9 * * *' }, scheduleText: '0 9 * * *' }),
      T0,
    );
    now = T0 + 30_000;
    await scheduler(new RecordingExecutor()).tick();
    expect((await store.get(job.id))?.nextRunAt).toBe(T0 + 24 * 60 * MIN);
  });

  it('a one-shot runs once and is disabled with no next run', async () => {
    const job = await store.create(
      newJob({ schedule: { kind: 'once', runAt: T0 }, scheduleText: '2026-05-04T09:00Z' }),
      T0,
    );
    const executor = new RecordingExecutor();
    const s = scheduler(executor);
    await s.tick();
    now += 10 * MIN;
    await s.tick();
    expect(executor.ran).toEqual([job.id]);
    expect(await store.get(job.id)).toMatchObject({ enabled: false, nextRunAt: null });
  });

  it('stops after repeat.times runs', async () => {
    const job = await store.create(newJob({ repeatTimes: 2 }), T0);
    const executor = new RecordingExecutor();
    const s = scheduler(executor);
    for (let i = 0; i < 4; i++) {
      await s.tick();
      now += 61 * MIN;
    }
    expect(executor.ran).toEqual([job.id, job.id]);
    expect(await store.get(job.id)).toMatchObject({
      repeat: { times: 2, completed: 2 },
      enabled: false,
      nextRunAt: null,
    });
  });

  it('an executor that throws is recorded as error and the tick goes on', async () => {
    const bad = await store.create(newJob({ name: 'bad' }), T0);
    const good = await store.create(newJob({ name: 'good' }), T0 + 1);
    const executor = new RecordingExecutor(async (job) => {
      if (job.id === bad.id) throw new Error('provider exploded');
      return { status: 'ok', output: 'fine' };
    });
    const records = await scheduler(executor).tick();
    expect(records.map((r) => [r.jobId, r.status]).sort()).toEqual(
      [
        [bad.id, 'error'],
        [good.id, 'ok'],
      ].sort(),
    );
    expect(await store.get(bad.id)).toMatchObject({
      lastStatus: 'error',
      lastError: expect.stringContaining('provider exploded'),
      failureStreak: 1,
      enabled: true,
    });
  });

  it('keeps a job paused when it was paused while running', async () => {
    const job = await store.create(newJob(), T0);
    const executor = new RecordingExecutor(async (running) => {
      await store.update(running.id, { enabled: false }, now);
      return { status: 'ok', output: '' };
    });
    await scheduler(executor).tick();
    expect(await store.get(job.id)).toMatchObject({ enabled: false, lastStatus: 'ok' });
  });

  it('never runs more than maxParallel jobs at once, and runs them all in one tick', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await store.create(newJob(), T0 + i)).id);
    const executor = new RecordingExecutor();
    const s = scheduler(executor, { maxParallel: 2 });
    const records = await s.tick();
    expect(executor.maxActive).toBe(2);
    expect([...executor.ran].sort()).toEqual([...ids].sort());
    expect(records).toHaveLength(5);
    expect(s.running).toBe(0);
  });

  it('a tick while one is in flight claims nothing', async () => {
    await store.create(newJob(), T0);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const executor = new RecordingExecutor(async () => {
      await gate;
      return { status: 'ok', output: '' };
    });
    const s = scheduler(executor);
    const first = s.tick();
    await expect(s.tick()).resolves.toEqual([]);
    release();
    expect(await first).toHaveLength(1);
    expect(executor.ran).toHaveLength(1);
  });
});

describe('CronScheduler.runNow', () => {
  it('runs a paused job in the foreground and leaves it paused with its schedule', async () => {
    const job = await store.create(newJob({ enabled: false, nextRunAt: T0 + 99 * MIN }), T0);
    const executor = new RecordingExecutor();
    const record = await scheduler(executor).runNow(job.id);
    expect(record).toMatchObject({ jobId: job.id, status: 'ok' });
    expect(await store.get(job.id)).toMatchObject({
      enabled: false,
      nextRunAt: T0 + 99 * MIN,
      lastStatus: 'ok',
      repeat: { completed: 1 },
    });
  });

  it('is undefined for a missing job and for one leased elsewhere', async () => {
    const job = await store.create(newJob(), T0);
    await store.claim(job.id, { owner: 'other', now: T0, leaseMs: 300_000 });
    const executor = new RecordingExecutor();
    const s = scheduler(executor);
    expect(await s.runNow('missing')).toBeUndefined();
    expect(await s.runNow(job.id)).toBeUndefined();
    expect(executor.ran).toEqual([]);
  });
});

describe('CronScheduler.stop', () => {
  it('aborts a running job after the grace period and resolves once it recorded', async () => {
    const job = await store.create(newJob(), T0);
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const executor = new RecordingExecutor(
      (_job, signal) =>
        new Promise<RunOutcome>((resolve) => {
          started();
          signal.addEventListener('abort', () =>
            resolve({ status: 'error', output: '', error: 'interrupted' }),
          );
        }),
    );
    const s = scheduler(executor);
    const tick = s.tick();
    await running;
    expect(s.running).toBe(1);
    await s.stop({ graceMs: 20 });
    expect(s.running).toBe(0);
    expect(await tick).toHaveLength(1);
    expect(await store.get(job.id)).toMatchObject({
      lastStatus: 'error',
      lastError: 'interrupted',
    });
    // Stopped: nothing is claimed any more.
    now += 2 * 60 * MIN;
    expect(await s.tick()).toEqual([]);
    expect(executor.ran).toHaveLength(1);
  });

  it('resolves even when a job ignores the abort, and stops renewing its lease', async () => {
    const job = await store.create(newJob(), T0);
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    let sawAbort = false;
    const executor = new RecordingExecutor(
      (_job, signal) =>
        new Promise<RunOutcome>(() => {
          started();
          signal.addEventListener('abort', () => {
            sawAbort = true;
          });
        }),
    );
    const s = scheduler(executor, { leaseMs: 60 });
    void s.tick();
    await running;
    await s.stop({ graceMs: 20 });
    expect(sawAbort).toBe(true);
    expect(s.running).toBe(1);
    // The stuck run keeps its lease until it expires; then another owner can take the job.
    now += 61;
    const other = openSqliteJobStore(process.env.HERMES_HOME ?? '');
    try {
      expect((await other.claim(job.id, { owner: 'next', now, leaseMs: 1000 }))?.id).toBe(job.id);
    } finally {
      await other.close();
    }
  });
});

/** Counts claims, and tells a waiting test when there were `n`. */
class CountingStore extends SqliteJobStore {
  claims = 0;
  private waiters: Array<{ n: number; resolve: () => void }> = [];

  override async claimDue(lease: LeaseRequest, limit: number): Promise<CronJob[]> {
    this.claims++;
    for (const waiter of this.waiters.filter((w) => this.claims >= w.n)) waiter.resolve();
    return super.claimDue(lease, limit);
  }

  claimed(n: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.claims >= n) resolve();
      else this.waiters.push({ n, resolve });
    });
  }
}

describe('CronScheduler.start', () => {
  let counting: CountingStore;
  beforeEach(() => {
    counting = new CountingStore({ path: join(process.env.HERMES_HOME ?? '', 'state.db') });
  });
  afterEach(async () => {
    await counting.close();
  });

  it('ticks at once on start, then on every interval', async () => {
    const job = await counting.create(newJob(), T0);
    let ran!: () => void;
    const first = new Promise<void>((resolve) => {
      ran = resolve;
    });
    const executor = new RecordingExecutor(async () => {
      ran();
      return { status: 'ok', output: '' };
    });
    const s = new CronScheduler({ store: counting, executor, clock, timezone: 'UTC' });
    s.start(60_000);
    await first; // long before a minute: the first tick does not wait for the interval
    await s.stop({ graceMs: 1000 });
    expect(executor.ran).toEqual([job.id]);

    const idle = new CronScheduler({ store: counting, executor, clock, timezone: 'UTC' });
    const before = counting.claims;
    idle.start(5);
    await counting.claimed(before + 3);
    await idle.stop();
  });

  it('skips an interval while the previous tick still runs instead of overlapping it', async () => {
    await counting.create(newJob(), T0);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const executor = new RecordingExecutor(async () => {
      await gate;
      return { status: 'ok', output: '' };
    });
    let skipped = 0;
    let skippedTwice!: () => void;
    const twice = new Promise<void>((resolve) => {
      skippedTwice = resolve;
    });
    const log = {
      warn: () => {},
      info: (message: string) => {
        if (message.includes('skipped') && ++skipped === 2) skippedTwice();
      },
    };
    const s = new CronScheduler({ store: counting, executor, clock, timezone: 'UTC', log });
    s.start(5);
    await twice;
    expect(counting.claims).toBe(1);
    expect(s.running).toBe(1);
    release();
    await s.stop({ graceMs: 1000 });
    expect(executor.ran).toHaveLength(1);
  });
});
