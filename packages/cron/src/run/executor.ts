/**
 * One run of one job, start to finish: build and scan the prompt, run the agent under its
 * budget, classify honestly (a failure is never `ok`), save the output file, deliver, and tell
 * the owner when the job was blocked or has failed too many times in a row (seed 12.3, 12.5).
 */
import { describeThrown, redactSecrets } from '@hermes/tools';
import type { CronJob, RunOutcome, RunStatus } from '../job.js';
import type { JobExecutor } from '../scheduler/job-executor.js';
import type { JobStore } from '../store/job-store.js';
import { buildJobPrompt, type SkillLoader } from './build-prompt.js';
import { resolveDeliveryTarget } from './delivery-target.js';
import { JOB_OUTPUT_KEEP, writeJobOutput } from './output-files.js';
import { CronPromptInjectionBlocked } from './prompt-blocked.js';
import { DEFAULT_RUN_TIMEOUT_MS, runAgentWithBudget } from './run-budget.js';
import type { CronAgentResult, CronAgentRunner, CronDelivery } from './seams.js';
import { isSilentAnswer } from './silent.js';

/** Failed runs in a row after which the owner is told, once. */
export const DEFAULT_FAILURE_ALERT_AFTER = 3;

/** Longest error kept in a run record or a notice. */
const MAX_ERROR_CHARS = 2_000;

/** What `deliveryError` says when the answer was queued because no gateway runs. */
export const QUEUED_DELIVERY_NOTE = 'queued: no gateway is running; it is sent when one starts';

/** Where the executor reports what it cannot put in an outcome. */
export interface CronExecutorLog {
  warn(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
}

/** Options of {@link CronJobExecutor}. */
export interface CronJobExecutorOptions {
  readonly store: JobStore;
  readonly agent: CronAgentRunner;
  readonly delivery: CronDelivery;
  /** `HERMES_HOME`: output files go under `cron/output/`. */
  readonly hermesHome: string;
  /** Loads a skill body by name for `job.skills`. */
  readonly loadSkill: SkillLoader;
  readonly clock?: () => number;
  /** Output files kept per job; default 50. */
  readonly keepOutputs?: number;
  /** Failed runs in a row that alert the owner; default 3. */
  readonly failureAlertAfter?: number;
  /** The run budget in milliseconds; default 30 minutes. */
  readonly runTimeoutMs?: number;
  readonly log?: CronExecutorLog;
}

const SILENT_LOG: CronExecutorLog = { warn: () => {}, info: () => {} };

/** Redacts and bounds an error for storage and delivery. */
function cleanError(text: string): string {
  const clean = redactSecrets(text).trim();
  if (clean.length === 0) return 'the run failed without a message';
  return clean.length > MAX_ERROR_CHARS ? `${clean.slice(0, MAX_ERROR_CHARS)}…` : clean;
}

interface Classified {
  readonly status: RunStatus;
  readonly output: string;
  readonly error?: string;
}

function classify(result: CronAgentResult): Classified {
  const output = redactSecrets(result.text);
  if (result.failure !== undefined)
    return { status: 'error', output, error: cleanError(result.failure) };
  if (isSilentAnswer(output)) return { status: 'silent', output };
  if (output.trim().length === 0) {
    return { status: 'error', output, error: 'the agent finished without an answer' };
  }
  return { status: 'ok', output };
}

/** The real {@link JobExecutor}. `execute` never throws. */
export class CronJobExecutor implements JobExecutor {
  private readonly options: CronJobExecutorOptions;
  private readonly clock: () => number;
  private readonly log: CronExecutorLog;

  constructor(options: CronJobExecutorOptions) {
    this.options = options;
    this.clock = options.clock ?? Date.now;
    this.log = options.log ?? SILENT_LOG;
  }

  /** Runs `job` once; `signal` aborts when the scheduler stops. */
  async execute(job: CronJob, signal: AbortSignal): Promise<RunOutcome> {
    const startedAt = this.clock();
    let prompt: string;
    try {
      prompt = await buildJobPrompt(job, this.options.loadSkill);
    } catch (error) {
      return this.refused(job, startedAt, error);
    }
    const budget = this.options.runTimeoutMs ?? DEFAULT_RUN_TIMEOUT_MS;
    const result = await runAgentWithBudget(this.options.agent, job, prompt, signal, budget);
    const run = classify(result);
    const outputPath = await this.saveOutput(job, startedAt, run);
    const base = {
      ...run,
      ...(outputPath !== undefined ? { outputPath } : {}),
      ...(result.sessionId !== undefined ? { sessionId: result.sessionId } : {}),
    };
    const deliveryError =
      run.status === 'ok'
        ? await this.send(job, run.output)
        : run.status === 'error'
          ? await this.alertStreak(job, run.error ?? '')
          : undefined;
    return deliveryError === undefined ? base : { ...base, deliveryError };
  }

  /** A prompt that could not be built: blocked by the scan, or a missing skill. */
  private async refused(job: CronJob, startedAt: number, error: unknown): Promise<RunOutcome> {
    const blocked = error instanceof CronPromptInjectionBlocked;
    const run: Classified = {
      status: blocked ? 'blocked' : 'error',
      output: '',
      error: cleanError(describeThrown(error)),
    };
    this.log.warn(`cron: job ${job.id} ${blocked ? 'blocked' : 'could not start'}`, {
      job: job.id,
      error: run.error,
    });
    const outputPath = await this.saveOutput(job, startedAt, run);
    let deliveryError: string | undefined;
    if (blocked)
      deliveryError = await this.send(job, `job "${job.name}" was blocked: ${run.error}`);
    deliveryError = (await this.alertStreak(job, run.error ?? '')) ?? deliveryError;
    return {
      ...run,
      ...(outputPath !== undefined ? { outputPath } : {}),
      ...(deliveryError !== undefined ? { deliveryError } : {}),
    };
  }

  /** Tells the owner when this failure makes the streak reach the threshold (only then). */
  private async alertStreak(job: CronJob, error: string): Promise<string | undefined> {
    const after = this.options.failureAlertAfter ?? DEFAULT_FAILURE_ALERT_AFTER;
    if (job.failureStreak + 1 !== after) return undefined;
    return this.send(
      job,
      `job "${job.name}" failed ${after} time${after === 1 ? '' : 's'} in a row; last error: ${error}`,
    );
  }

  /**
   * Sends `text` where the job delivers and records the result as the job's delivery error.
   * Returns the delivery error, or undefined when it went through (or the job is `local`).
   */
  private async send(job: CronJob, text: string): Promise<string | undefined> {
    const resolved = resolveDeliveryTarget(job);
    if (resolved.kind === 'local') {
      this.log.info(`cron: job ${job.id} delivers locally`, { job: job.id, text });
      return undefined;
    }
    let error: string | undefined;
    if (resolved.kind === 'none') {
      error = resolved.error;
    } else {
      try {
        await this.options.delivery.deliver(resolved.target, text, job);
        if (!this.options.delivery.live) error = QUEUED_DELIVERY_NOTE;
      } catch (thrown) {
        error = `delivery failed: ${cleanError(describeThrown(thrown))}`;
      }
    }
    if (error !== undefined)
      this.log.warn(`cron: job ${job.id} not delivered`, { job: job.id, error });
    try {
      await this.options.store.setDeliveryError(job.id, error ?? null);
    } catch (thrown) {
      this.log.warn('cron: could not record the delivery result', {
        error: describeThrown(thrown),
      });
    }
    return error;
  }

  /** Writes the output file; a failure to write is logged, not fatal to the run's record. */
  private async saveOutput(
    job: CronJob,
    startedAt: number,
    run: Classified,
  ): Promise<string | undefined> {
    try {
      return await writeJobOutput({
        hermesHome: this.options.hermesHome,
        job,
        status: run.status,
        startedAt,
        finishedAt: this.clock(),
        answer: run.output,
        ...(run.error !== undefined ? { error: run.error } : {}),
        keep: this.options.keepOutputs ?? JOB_OUTPUT_KEEP,
      });
    } catch (error) {
      this.log.warn('cron: could not write the output file', {
        job: job.id,
        error: describeThrown(error),
      });
      return undefined;
    }
  }
}
