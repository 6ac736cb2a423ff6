/** How `hermes cron` prints jobs, runs and times. */
import type { CronJob, RunRecord } from '@hermes/cron';
import { oneLine, table } from '../sessions/format.js';

/**
 * `2025-01-02 09:00` in `timezone` (an IANA name such as `Europe/Paris`), or in the machine's
 * local time when none is configured; `-` for no time.
 */
export function formatZoned(ms: number | null, timezone?: string): string {
  if (ms === null) return '-';
  const parts = new Intl.DateTimeFormat('en-GB', {
    ...(timezone ? { timeZone: timezone } : {}),
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(ms));
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}`;
}

/** The zone the times are shown in, for a header: the configured one or the machine's. */
export function zoneLabel(timezone?: string): string {
  return timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'local time';
}

/** `ok`, `error`, … or `never run`. */
function lastStatus(job: CronJob): string {
  if (job.lastStatus === null) return 'never run';
  return job.failureStreak > 1
    ? `${job.lastStatus} (${job.failureStreak} in a row)`
    : job.lastStatus;
}

/** The `hermes cron list` table. */
export function jobTable(jobs: readonly CronJob[], timezone?: string): string[] {
  const header = ['ID', 'NAME', 'SCHEDULE', `NEXT RUN (${zoneLabel(timezone)})`, 'LAST', 'ENABLED'];
  const rows = jobs.map((job) => [
    job.id,
    oneLine(job.name, 40),
    job.scheduleText,
    job.enabled ? formatZoned(job.nextRunAt, timezone) : '-',
    lastStatus(job),
    job.enabled ? 'yes' : 'no',
  ]);
  return table([header, ...rows]);
}

/** Seconds a run took, one decimal. */
function seconds(run: RunRecord): string {
  return ((run.finishedAt - run.startedAt) / 1000).toFixed(1);
}

/** The `hermes cron runs <id>` table, newest first. */
export function runTable(runs: readonly RunRecord[], timezone?: string): string[] {
  const header = [`STARTED (${zoneLabel(timezone)})`, 'STATUS', 'SECONDS', 'RESULT'];
  const rows = runs.map((run) => [
    formatZoned(run.startedAt, timezone),
    run.status,
    seconds(run),
    oneLine(run.error ?? run.outputPath ?? run.output, 80),
  ]);
  return table([header, ...rows]);
}

/** One line for a finished run: `<id> (<name>): ok in 3.2 s — <output file>`. */
export function runLine(run: RunRecord, name: string | undefined): string {
  const who = name === undefined ? run.jobId : `${run.jobId} (${name})`;
  const detail = run.error ? `: ${oneLine(run.error, 200)}` : '';
  const file = run.outputPath ? ` -> ${run.outputPath}` : '';
  return `${who}: ${run.status} in ${seconds(run)} s${detail}${file}`;
}
