import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CronJobExecutor,
  JOB_OUTPUT_KEEP,
  jobOutputDir,
  outputStamp,
  writeJobOutput,
} from '../src/index.js';
import {
  createJob,
  neverAborted,
  openTestStore,
  RecordingDelivery,
  ScriptedAgent,
} from './support/doubles.js';

const T0 = Date.UTC(2026, 0, 31, 23, 59, 58, 7);

describe('job output files', () => {
  it('rotate at 50: after 53 runs the newest 50 remain', async () => {
    const home = process.env.HERMES_HOME ?? '';
    const store = openTestStore();
    let now = T0;
    let n = 0;
    const agent = new ScriptedAgent(async () => ({ text: `run ${++n}` }));
    const executor = new CronJobExecutor({
      store,
      agent,
      delivery: new RecordingDelivery(),
      hermesHome: home,
      loadSkill: async () => undefined,
      clock: () => now,
    });
    const job = await createJob(store, { deliver: { kind: 'local' } });
    for (let i = 0; i < 53; i++) {
      await executor.execute(job, neverAborted());
      now += 3_600_000;
    }
    const dir = jobOutputDir(home, job.id);
    const names = readdirSync(dir).sort();
    expect(JOB_OUTPUT_KEEP).toBe(50);
    expect(names).toHaveLength(50);
    expect(names[0]).toBe(`${outputStamp(T0 + 3 * 3_600_000)}.md`);
    expect(readFileSync(join(dir, names[0] ?? ''), 'utf8')).toContain('run 4');
    expect(readFileSync(join(dir, names[49] ?? ''), 'utf8')).toContain('run 53');
  });

  it('names files by UTC start time, filesystem-safe and sortable, with a header', async () => {
    const home = process.env.HERMES_HOME ?? '';
    const job = await createJob(openTestStore(), { name: 'weekly' });
    const path = await writeJobOutput({
      hermesHome: home,
      job,
      status: 'ok',
      startedAt: T0,
      finishedAt: T0 + 1500,
      answer: 'All quiet.',
    });
    expect(path).toBe(join(home, 'cron', 'output', job.id, '2026-01-31T23-59-58-007Z.md'));
    expect(readFileSync(path, 'utf8')).toBe(
      [
        '# weekly',
        '',
        `- Job: ${job.id}`,
        '- Status: ok',
        '- Schedule: every 1h',
        '- Started: 2026-01-31T23:59:58.007Z',
        '- Finished: 2026-01-31T23:59:59.507Z',
        '',
        '## Answer',
        '',
        'All quiet.',
        '',
      ].join('\n'),
    );
  });

  it('keeps two runs that start in the same millisecond, in order, and leaves no temp files', async () => {
    const home = process.env.HERMES_HOME ?? '';
    const job = await createJob(openTestStore());
    const base = { hermesHome: home, job, status: 'ok' as const, startedAt: T0, finishedAt: T0 };
    const first = await writeJobOutput({ ...base, answer: 'first' });
    const second = await writeJobOutput({ ...base, answer: 'second', keep: 1 });
    const names = readdirSync(jobOutputDir(home, job.id));
    expect(names).toEqual([second.split('/').pop()]);
    expect(second > first).toBe(true);
    expect(readFileSync(second, 'utf8')).toContain('second');
  });
});
