/**
 * What a scheduled job is: its schedule, what it runs, where its answer goes, and what its last
 * run did. The shared vocabulary of the store, the scheduler, the executor and the `cronjob` tool.
 */

/** When a job runs. `once` jobs carry an absolute time; the others compute their next run. */
export type Schedule =
  | { readonly kind: 'interval'; readonly minutes: number }
  | { readonly kind: 'cron'; readonly expr: string }
  | { readonly kind: 'once'; readonly runAt: number };

/** A chat a result can go to: `<platform>:<chat>[:<thread>]`. */
export interface ChatTarget {
  readonly platform: string;
  readonly chatId: string;
  readonly threadId?: string;
}

/**
 * Where a job's answer goes: back to the chat the job was created from (`origin`), nowhere but the
 * output file (`local`), or a named chat.
 */
export type DeliverTarget =
  | { readonly kind: 'origin' }
  | { readonly kind: 'local' }
  | ({ readonly kind: 'chat' } & ChatTarget);

/** The chat (and session) a job was created from. */
export interface JobOrigin extends ChatTarget {
  readonly sessionId?: string;
}

/** How a run ended. `silent` is a success whose answer was exactly `[SILENT]`. */
export type RunStatus = 'ok' | 'silent' | 'error' | 'blocked';

/** How many times a job runs: `times` null means forever. */
export interface JobRepeat {
  readonly times: number | null;
  readonly completed: number;
}

/** A stored job. Times are milliseconds since the epoch. */
export interface CronJob {
  readonly id: string;
  readonly name: string;
  readonly prompt: string;
  readonly schedule: Schedule;
  /** The schedule as the user wrote it (`every 2h`, `0 9 * * 1-5`, `30m`). */
  readonly scheduleText: string;
  readonly repeat: JobRepeat;
  readonly deliver: DeliverTarget;
  readonly origin?: JobOrigin;
  /** Skills whose bodies are loaded into the prompt at run time (scanned first). */
  readonly skills: readonly string[];
  /** A model that replaces the configured one for this job. */
  readonly model?: string;
  /** Toolsets for this job instead of `hermes-cron` (never `clarify`, `delegation`, `cronjob`). */
  readonly enabledToolsets?: readonly string[];
  /** The working directory of the run; default the configured one. */
  readonly workdir?: string;
  readonly enabled: boolean;
  /** Null when the job will not run again (paused one-shot done, repeat exhausted). */
  readonly nextRunAt: number | null;
  readonly lastRunAt: number | null;
  readonly lastStatus: RunStatus | null;
  readonly lastError: string | null;
  readonly lastDeliveryError: string | null;
  /** Failed or blocked runs in a row; a success resets it. */
  readonly failureStreak: number;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** What `JobStore.create` takes; the store assigns `id`, times and run state. */
export interface NewJob {
  readonly name: string;
  readonly prompt: string;
  readonly schedule: Schedule;
  readonly scheduleText: string;
  /** Default: once for `once` schedules, forever otherwise. */
  readonly repeatTimes?: number | null;
  readonly deliver: DeliverTarget;
  readonly origin?: JobOrigin;
  readonly skills?: readonly string[];
  readonly model?: string;
  readonly enabledToolsets?: readonly string[];
  readonly workdir?: string;
  /** Default true. */
  readonly enabled?: boolean;
  /** The first run; computed by the caller from the schedule (see `nextRunAfter`). */
  readonly nextRunAt: number | null;
}

/** The fields `JobStore.update` may change (`cronjob update`, `hermes cron edit`, pause, resume). */
export interface JobPatch {
  readonly name?: string;
  readonly prompt?: string;
  readonly schedule?: Schedule;
  readonly scheduleText?: string;
  readonly repeatTimes?: number | null;
  readonly deliver?: DeliverTarget;
  readonly skills?: readonly string[];
  /** Null clears the override. */
  readonly model?: string | null;
  readonly enabledToolsets?: readonly string[] | null;
  readonly workdir?: string | null;
  readonly enabled?: boolean;
  readonly nextRunAt?: number | null;
}

/** What one run produced; the executor returns it and the store keeps it in the job's history. */
export interface RunOutcome {
  readonly status: RunStatus;
  /** The model or tool failure, or why the job was blocked. Secrets redacted. */
  readonly error?: string;
  /** The final answer (empty when blocked or failed before any answer). */
  readonly output: string;
  /** The output file written under `HERMES_HOME/cron/output/<job>/`. */
  readonly outputPath?: string;
  /** Why delivery failed, or that it was queued as pending. */
  readonly deliveryError?: string;
  /** The session the run used. */
  readonly sessionId?: string;
}

/** One run in a job's history (`hermes cron runs <id>`). */
export interface RunRecord extends RunOutcome {
  readonly jobId: string;
  readonly startedAt: number;
  readonly finishedAt: number;
}

/** A delivery waiting for a gateway: recorded when no gateway ran, sent on its next start. */
export interface PendingDelivery {
  readonly id: number;
  readonly jobId: string;
  readonly target: ChatTarget;
  readonly text: string;
  readonly createdAt: number;
  readonly attempts: number;
  readonly lastError: string | null;
}
