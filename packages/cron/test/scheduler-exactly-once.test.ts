/**
 * Exactly-once across schedulers: two CronScheduler instances with different owners, each on its
 * own store on one database (two connections to one state.db; two pools on one PostgreSQL
 * database), sharing a fake clock; plus lease expiry (a runner that died) and lease renewal (a
 * runner that is alive but slow).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  type CronJob,
  CronScheduler,
  type JobExecutor,
  type LeaseRequest,
  type NewJob,
  type RunOutcome,
} from '../src/index.js';
import { DelegatingJobStore } from './support/delegating-job-store.js';
import { STORE_BACKENDS, useStorePair } from './support/store-backends.js';

const T0 = Date.parse('2026-05-04T09:00:00Z');
const MIN = 60_000;

function newJob(index: number): NewJob {
  return {
    name: `job-${index}`,
    prompt: 'do it',
    schedule: { kind: 'interval', minutes: 1 },
    scheduleText: 'every 1m',
    deliver: { kind: 'local' },
    nextRunAt: T0,
  };
}

/** Every execution as (job, owner, clock), shared by both schedulers. */
interface Execution {
  readonly jobId: string;
  readonly owner: string;
  readonly at: number;
}

class SharedExecutor implements JobExecutor {
  constructor(
    private readonly owner: string,
    private readonly log: Execution[],
    private readonly clock: () => number,
    private readonly body: (job: CronJob) => Promise<void> = async () => {},
  ) {}

  async execute(job: CronJob): Promise<RunOutcome> {
    this.log.push({ jobId: job.id, owner: this.owner, at: this.clock() });
    // Yield so that the other scheduler's claims interleave with this run.
    for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve));
    await this.body(job);
    return { status: 'ok', output: job.name };
  }
}

/** A store that tells a waiting test about each lease renewal it made. */
class RenewalWatchingStore extends DelegatingJobStore {
  private listeners: Array<(lease: LeaseRequest) => void> = [];

  override async renewLease(id: string, lease: LeaseRequest): Promise<boolean> {
    const renewed = await super.renewLease(id, lease);
    if (renewed) for (const listener of this.listeners) listener(lease);
    return renewed;
  }

  /** Resolves on the first renewal made at or after `now`. */
  renewalAtOrAfter(now: number): Promise<void> {
    return new Promise((resolve) => {
      this.listeners.push((lease) => {
        if (lease.now >= now) resolve();
      });
    });
  }
}

let now: number;
const clock = () => now;

beforeEach(() => {
  now = T0;
});

for (const backend of STORE_BACKENDS) {
  describe.runIf(backend.available)(`${backend.name} schedulers ${backend.note}`, () => {
    const stores = useStorePair(backend, (store) => new RenewalWatchingStore(store));
    let a: RenewalWatchingStore;
    let b: RenewalWatchingStore;
    beforeEach(() => {
      a = stores.current.a as RenewalWatchingStore;
      b = stores.current.b as RenewalWatchingStore;
    });

    describe('two schedulers on one store', () => {
      it('run each due job exactly once per due time, however their ticks interleave', async () => {
        const ids: string[] = [];
        for (let i = 0; i < 8; i++) ids.push((await a.create(newJob(i), T0)).id);
        const executions: Execution[] = [];
        const common = { clock, timezone: 'UTC', maxParallel: 3 };
        const sa = new CronScheduler({
          ...common,
          store: a,
          owner: 'A',
          executor: new SharedExecutor('A', executions, clock),
        });
        const sb = new CronScheduler({
          ...common,
          store: b,
          owner: 'B',
          executor: new SharedExecutor('B', executions, clock),
        });
        const rounds = 12;
        for (let round = 0; round < rounds; round++) {
          now = T0 + round * MIN;
          await Promise.all([sa.tick(), sb.tick(), sb.tick(), sa.tick()]);
        }
        expect(executions).toHaveLength(ids.length * rounds);
        for (let round = 0; round < rounds; round++) {
          const at = T0 + round * MIN;
          const inRound = executions.filter((e) => e.at === at).map((e) => e.jobId);
          expect([...inRound].sort()).toEqual([...ids].sort());
        }
        // Both schedulers did real work, so the claims really competed.
        expect(new Set(executions.map((e) => e.owner))).toEqual(new Set(['A', 'B']));
        for (const id of ids) expect(await b.listRuns(id)).toHaveLength(rounds);
      });
    });

    describe('one due job', () => {
      it('both schedulers ticking at once run it once', async () => {
        const job = await a.create(newJob(0), T0);
        const executions: Execution[] = [];
        const scheduler = (store: RenewalWatchingStore, owner: string) =>
          new CronScheduler({
            store,
            owner,
            clock,
            timezone: 'UTC',
            executor: new SharedExecutor(owner, executions, clock),
          });
        const [sa, sb] = [scheduler(a, 'A'), scheduler(b, 'B')];
        const ticks = Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? sa : sb).tick());
        const results = (await Promise.all(ticks)).flat();
        expect(results.map((r) => r.jobId)).toEqual([job.id]);
        expect(executions.map((e) => e.jobId)).toEqual([job.id]);
        expect(await b.listRuns(job.id)).toHaveLength(1);
        expect(await a.get(job.id)).toMatchObject({
          nextRunAt: T0 + MIN,
          repeat: { completed: 1 },
        });
      });
    });

    describe('leases between schedulers', () => {
      it('a job whose runner died is run by another owner only once the lease expired', async () => {
        const job = await a.create(newJob(0), T0);
        // Owner "dead" claims the job and is never heard from again.
        expect(await a.claimDue({ owner: 'dead', now: T0, leaseMs: 300_000 }, 1)).toHaveLength(1);
        const executions: Execution[] = [];
        const sb = new CronScheduler({
          store: b,
          owner: 'B',
          clock,
          timezone: 'UTC',
          executor: new SharedExecutor('B', executions, clock),
        });
        now = T0 + MIN;
        expect(await sb.tick()).toEqual([]);
        now = T0 + 300_000 - 1;
        expect(await sb.tick()).toEqual([]);
        now = T0 + 300_000;
        expect((await sb.tick()).map((r) => r.jobId)).toEqual([job.id]);
        expect(executions.map((e) => e.jobId)).toEqual([job.id]);
        expect(await b.get(job.id)).toMatchObject({ lastStatus: 'ok', nextRunAt: now + MIN });
      });

      it('a slow runner that renews its lease keeps the job from the other scheduler', async () => {
        const job = await a.create(newJob(0), T0);
        const leaseMs = 300; // renewed every 100 ms of real time
        let release!: () => void;
        const gate = new Promise<void>((resolve) => {
          release = resolve;
        });
        let started!: () => void;
        const running = new Promise<void>((resolve) => {
          started = resolve;
        });
        const executions: Execution[] = [];
        const sa = new CronScheduler({
          store: a,
          owner: 'A',
          clock,
          leaseMs,
          timezone: 'UTC',
          executor: new SharedExecutor('A', executions, clock, async () => {
            started();
            await gate;
          }),
        });
        const sb = new CronScheduler({
          store: b,
          owner: 'B',
          clock,
          leaseMs,
          timezone: 'UTC',
          executor: new SharedExecutor('B', executions, clock),
        });
        const slow = sa.tick();
        await running;
        now = T0 + 250;
        await a.renewalAtOrAfter(T0 + 250); // A's lease now lasts until T0 + 550 at least
        now = T0 + 400; // past the first lease, inside the renewed one
        expect(await sb.tick()).toEqual([]);
        release();
        expect((await slow).map((r) => r.jobId)).toEqual([job.id]);
        expect(executions.map((e) => e.owner)).toEqual(['A']);
      });
    });
  });
}
