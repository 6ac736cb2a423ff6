#!/usr/bin/env node
/**
 * What the scheduler itself costs per job, apart from the agent turn: parsing schedules, claiming
 * due jobs under a lease, recording runs. A no-op executor stands in for the agent. Also: two
 * schedulers on one state.db racing for the same due jobs (each must run once). Runs against the
 * built package: `npx tsup && node bench/scheduler.mjs`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CronScheduler, nextRunAfter, openSqliteJobStore, parseSchedule } from '../dist/index.js';

const JOBS = Number(process.env.BENCH_JOBS ?? 1_000);
const ROUNDS = 5;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function parseCost() {
  const texts = ['every 2h', '0 9 * * 1-5', '30m', '*/15 * * * *', '2026-12-31T09:00:00Z'];
  const now = Date.UTC(2026, 11, 2);
  const started = performance.now();
  const n = 20_000;
  for (let i = 0; i < n; i++) {
    const schedule = parseSchedule(texts[i % texts.length], { now, timezone: 'Europe/Berlin' });
    nextRunAfter(schedule, now, { timezone: 'Europe/Berlin' });
  }
  return ((performance.now() - started) / n) * 1_000;
}

async function seed(store, now) {
  for (let i = 0; i < JOBS; i++) {
    await store.create(
      {
        name: `job ${i}`,
        prompt: 'noop',
        schedule: { kind: 'interval', minutes: 60 },
        scheduleText: 'every 1h',
        deliver: { kind: 'local' },
        nextRunAt: now - 1_000,
      },
      now,
    );
  }
}

const noop = (ran) => ({
  execute: async (job) => {
    ran.push(job.id);
    return { status: 'ok', output: 'done' };
  },
});

async function oneRound() {
  const home = mkdtempSync(join(tmpdir(), 'cron-bench-'));
  const path = join(home, 'state.db');
  const a = openSqliteJobStore(home);
  const b = openSqliteJobStore(home);
  try {
    let now = Date.now();
    await seed(a, now);
    const ran = [];
    const one = new CronScheduler({
      store: a,
      executor: noop(ran),
      maxParallel: 50,
      clock: () => now,
    });
    let started = performance.now();
    await one.tick();
    const single = ((performance.now() - started) / JOBS) * 1_000;
    // Both schedulers race for the same due jobs an hour later.
    now += 3_600_000 + 1_000;
    const raced = [];
    const x = new CronScheduler({
      store: a,
      executor: noop(raced),
      maxParallel: 50,
      owner: 'x',
      clock: () => now,
    });
    const y = new CronScheduler({
      store: b,
      executor: noop(raced),
      maxParallel: 50,
      owner: 'y',
      clock: () => now,
    });
    started = performance.now();
    await Promise.all([x.tick(), y.tick()]);
    const racedUs = ((performance.now() - started) / JOBS) * 1_000;
    const twice = raced.length - new Set(raced).size;
    return { single, racedUs, ran: ran.length, raced: raced.length, twice, path };
  } finally {
    await a.close();
    await b.close();
    rmSync(home, { recursive: true, force: true });
  }
}

const parse = parseCost();
const rounds = [];
for (let i = 0; i < ROUNDS; i++) rounds.push(await oneRound());
console.log(`schedule parse + next run: ${parse.toFixed(1)} µs each`);
console.log(
  `one scheduler, ${JOBS} due jobs, no-op executor: ${median(rounds.map((r) => r.single)).toFixed(0)} µs per job (claim + run + record), median of ${ROUNDS}`,
);
console.log(
  `two schedulers on one state.db racing: ${median(rounds.map((r) => r.racedUs)).toFixed(0)} µs per job; runs ${rounds.map((r) => r.raced).join('/')} of ${JOBS}; run twice: ${rounds.reduce((sum, r) => sum + r.twice, 0)}`,
);
