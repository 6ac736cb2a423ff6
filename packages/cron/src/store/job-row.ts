/**
 * Rows of `cron_jobs`, `cron_runs` and `cron_pending_deliveries` and their mapping to the
 * public types. JSON columns are checked with zod on the way out, so a row edited by hand into
 * something else is reported as a bad row instead of flowing on as a wrong-shaped job.
 */
import { HermesError } from '@hermes/protocol';
import { z } from 'zod';
import type {
  ChatTarget,
  CronJob,
  DeliverTarget,
  JobOrigin,
  PendingDelivery,
  RunRecord,
  RunStatus,
  Schedule,
} from '../job.js';

/** A `cron_jobs` row as SQLite returns it. */
export interface JobRow {
  id: string;
  name: string;
  prompt: string;
  schedule: string;
  schedule_text: string;
  repeat_times: number | null;
  repeat_completed: number;
  deliver: string;
  origin: string | null;
  skills: string;
  model: string | null;
  enabled_toolsets: string | null;
  workdir: string | null;
  enabled: number;
  next_run_at: number | null;
  last_run_at: number | null;
  last_status: string | null;
  last_error: string | null;
  last_delivery_error: string | null;
  failure_streak: number;
  created_at: number;
  updated_at: number;
  lease_owner: string | null;
  lease_until: number | null;
}

const scheduleSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('interval'), minutes: z.number().int().positive() }),
  z.object({ kind: z.literal('cron'), expr: z.string().min(1) }),
  z.object({ kind: z.literal('once'), runAt: z.number() }),
]);

const chatSchema = z.object({
  platform: z.string().min(1),
  chatId: z.string().min(1),
  threadId: z.string().optional(),
});

const deliverSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('origin') }),
  z.object({ kind: z.literal('local') }),
  chatSchema.extend({ kind: z.literal('chat') }),
]);

const originSchema = chatSchema.extend({ sessionId: z.string().optional() });
const stringsSchema = z.array(z.string());
const statusSchema = z.enum(['ok', 'silent', 'error', 'blocked']);

/** Parses JSON column `column` of job `id` with `schema`; throws `cron.bad_job_row` naming both. */
function jsonColumn<T>(id: string, column: string, text: string, schema: z.ZodType<T>): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw badRow(id, `${column} is not JSON`, error);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw badRow(id, `${column} has the wrong shape: ${parsed.error.message}`);
  return parsed.data;
}

/** The error for a stored job that cannot be read back. */
export function badRow(id: string, reason: string, cause?: unknown): HermesError {
  return new HermesError(
    'cron.bad_job_row',
    `stored cron job ${id} is unreadable (${reason}); fix or remove it with "hermes cron remove ${id}"`,
    { details: { id }, cause },
  );
}

/** Drops undefined optional fields so a job reads as "no override" (exactOptionalPropertyTypes). */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** The job stored in `row`; throws `cron.bad_job_row` when a JSON column is corrupt. */
export function rowToJob(row: JobRow): CronJob {
  const schedule: Schedule = jsonColumn(row.id, 'schedule', row.schedule, scheduleSchema);
  const deliver = defined(
    jsonColumn(row.id, 'deliver', row.deliver, deliverSchema),
  ) as DeliverTarget;
  const origin =
    row.origin === null
      ? undefined
      : (defined(jsonColumn(row.id, 'origin', row.origin, originSchema)) as JobOrigin);
  const toolsets =
    row.enabled_toolsets === null
      ? undefined
      : jsonColumn(row.id, 'enabled_toolsets', row.enabled_toolsets, stringsSchema);
  const status = row.last_status === null ? null : statusSchema.safeParse(row.last_status);
  if (status && !status.success)
    throw badRow(row.id, `last_status "${row.last_status}" is unknown`);
  return defined({
    id: row.id,
    name: row.name,
    prompt: row.prompt,
    schedule,
    scheduleText: row.schedule_text,
    repeat: { times: row.repeat_times, completed: row.repeat_completed },
    deliver,
    origin,
    skills: jsonColumn(row.id, 'skills', row.skills, stringsSchema),
    model: row.model ?? undefined,
    enabledToolsets: toolsets,
    workdir: row.workdir ?? undefined,
    enabled: row.enabled === 1,
    nextRunAt: row.next_run_at,
    lastRunAt: row.last_run_at,
    lastStatus: status ? (status.data as RunStatus) : null,
    lastError: row.last_error,
    lastDeliveryError: row.last_delivery_error,
    failureStreak: row.failure_streak,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }) as CronJob;
}

/** A `cron_runs` row. */
export interface RunRow {
  job_id: string;
  started_at: number;
  finished_at: number;
  status: string;
  error: string | null;
  output: string;
  output_path: string | null;
  delivery_error: string | null;
  session_id: string | null;
}

/** The run in `row`. An unknown status (a newer build's) reads as `error`, never as success. */
export function rowToRun(row: RunRow): RunRecord {
  const status = statusSchema.safeParse(row.status);
  return defined({
    jobId: row.job_id,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    status: status.success ? status.data : 'error',
    error: row.error ?? undefined,
    output: row.output,
    outputPath: row.output_path ?? undefined,
    deliveryError: row.delivery_error ?? undefined,
    sessionId: row.session_id ?? undefined,
  }) as RunRecord;
}

/** A `cron_pending_deliveries` row. */
export interface PendingRow {
  id: number;
  job_id: string;
  target: string;
  text: string;
  created_at: number;
  attempts: number;
  last_error: string | null;
}

/** The pending delivery in `row`; a corrupt target throws `cron.bad_job_row` naming the job. */
export function rowToPending(row: PendingRow): PendingDelivery {
  const target = defined(
    jsonColumn(row.job_id, 'pending target', row.target, chatSchema),
  ) as ChatTarget;
  return {
    id: row.id,
    jobId: row.job_id,
    target,
    text: row.text,
    createdAt: row.created_at,
    attempts: row.attempts,
    lastError: row.last_error,
  };
}
