/** How the `cronjob` tool shows a job to the model: short, flat, times as ISO text. */
import type { CronJob, RunOutcome } from '../job.js';
import { formatDeliverTarget } from '../schedule/deliver-target.js';

/** Longest prompt preview in a job view. */
const PROMPT_PREVIEW_CHARS = 120;
/** Longest run output returned by `action=run`. */
const OUTPUT_PREVIEW_CHARS = 2_000;

function iso(time: number | null): string | null {
  return time === null ? null : new Date(time).toISOString();
}

function preview(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** A job as the model reads it. */
export function jobView(job: CronJob): Record<string, unknown> {
  const { times, completed } = job.repeat;
  return {
    id: job.id,
    name: job.name,
    schedule: job.scheduleText,
    prompt: preview(job.prompt, PROMPT_PREVIEW_CHARS),
    deliver: formatDeliverTarget(job.deliver),
    enabled: job.enabled,
    next_run_at: iso(job.nextRunAt),
    repeat: times === null ? `${completed} runs, forever` : `${completed}/${times} runs`,
    ...(job.skills.length > 0 ? { skills: job.skills } : {}),
    ...(job.model !== undefined ? { model: job.model } : {}),
    last_run_at: iso(job.lastRunAt),
    last_status: job.lastStatus,
    ...(job.lastError !== null ? { last_error: job.lastError } : {}),
    ...(job.lastDeliveryError !== null ? { last_delivery_error: job.lastDeliveryError } : {}),
  };
}

/** A finished run as the model reads it (the output cut to a preview). */
export function runView(outcome: RunOutcome): Record<string, unknown> {
  return {
    status: outcome.status,
    ...(outcome.error !== undefined ? { error: outcome.error } : {}),
    ...(outcome.output.length > 0 ? { output: preview(outcome.output, OUTPUT_PREVIEW_CHARS) } : {}),
    ...(outcome.deliveryError !== undefined ? { delivery_error: outcome.deliveryError } : {}),
    ...(outcome.outputPath !== undefined ? { output_file: outcome.outputPath } : {}),
  };
}
