/**
 * One Markdown file per run under `HERMES_HOME/cron/output/<jobId>/`, named by its UTC start time
 * so names sort in run order, written atomically and rotated to the newest {@link JOB_OUTPUT_KEEP}.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CronJob, RunStatus } from '../job.js';

/** How many output files each job keeps. */
export const JOB_OUTPUT_KEEP = 50;

/** What {@link writeJobOutput} writes. */
export interface JobOutput {
  readonly hermesHome: string;
  readonly job: CronJob;
  readonly status: RunStatus;
  readonly startedAt: number;
  readonly finishedAt: number;
  /** The answer (already redacted). */
  readonly answer: string;
  /** The failure or block reason (already redacted). */
  readonly error?: string;
  /** Files kept per job; default {@link JOB_OUTPUT_KEEP}. */
  readonly keep?: number;
}

/** `HERMES_HOME/cron/output/<jobId>`. */
export function jobOutputDir(hermesHome: string, jobId: string): string {
  return join(hermesHome, 'cron', 'output', jobId);
}

/** `2026-05-01T09-00-00-123Z`: ISO UTC without colons (legal on every filesystem), sortable. */
export function outputStamp(time: number): string {
  return new Date(time).toISOString().replace(/[:.]/g, '-');
}

function render(output: JobOutput): string {
  const { job } = output;
  const lines = [
    `# ${job.name}`,
    '',
    `- Job: ${job.id}`,
    `- Status: ${output.status}`,
    `- Schedule: ${job.scheduleText}`,
    `- Started: ${new Date(output.startedAt).toISOString()}`,
    `- Finished: ${new Date(output.finishedAt).toISOString()}`,
    '',
  ];
  if (output.error !== undefined) lines.push('## Error', '', output.error, '');
  if (output.answer.length > 0) lines.push('## Answer', '', output.answer, '');
  return lines.join('\n');
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** A free name for this start time; `_001`… after the stamp keeps ties in write order. */
async function freeName(dir: string, startedAt: number): Promise<string> {
  const stamp = outputStamp(startedAt);
  let name = `${stamp}.md`;
  for (let n = 1; await exists(join(dir, name)); n++) {
    name = `${stamp}_${String(n).padStart(3, '0')}.md`;
  }
  return name;
}

/** Deletes all but the newest `keep` output files of the job. */
export async function rotateJobOutputs(dir: string, keep: number): Promise<void> {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.md')).sort();
  const excess = names.slice(0, Math.max(0, names.length - keep));
  await Promise.all(excess.map((name) => rm(join(dir, name), { force: true })));
}

/**
 * Writes the run's file (tmp + rename, so a reader never sees half of it), then rotates.
 *
 * @returns The file's path.
 */
export async function writeJobOutput(output: JobOutput): Promise<string> {
  const dir = jobOutputDir(output.hermesHome, output.job.id);
  await mkdir(dir, { recursive: true });
  const path = join(dir, await freeName(dir, output.startedAt));
  const tmp = join(dir, `.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  await writeFile(tmp, render(output), 'utf8');
  await rename(tmp, path);
  await rotateJobOutputs(dir, output.keep ?? JOB_OUTPUT_KEEP);
  return path;
}
