/**
 * `/api/jobs` over a cron service: the API server's `JobsApi` seam implemented with the job
 * store, the shared reading of a job description (`@hermes/cron`'s `JobInputSchema`), and the
 * scheduler for "run now". A job created over HTTP has no origin chat, so it delivers locally
 * unless the body names a chat.
 */
import {
  type CronJob,
  type CronScheduler,
  enabledPatch,
  type JobInput,
  JobInputSchema,
  type JobStore,
  jobPatchFromInput,
  newJobFromInput,
} from '@hermes/cron';
import { JobInputError, type JobsApi } from '@hermes/gateway';
import { HermesError, isHermesError } from '@hermes/protocol';

/** What {@link cronJobsApi} works on. */
export interface CronJobsApiOptions {
  readonly store: JobStore;
  readonly scheduler: Pick<CronScheduler, 'runNow'>;
  /** IANA zone for cron expressions and zone-less times (`cron.timezone`). */
  readonly timezone?: string | undefined;
  readonly clock?: () => number;
  /** Told when a job started with `run` fails outside its own record (a store error). */
  readonly onRunError?: (id: string, error: unknown) => void;
}

function parseInput(body: unknown): JobInput {
  const parsed = JobInputSchema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path.join('.') ?? '';
  const field = path === '' ? null : path;
  const keys = issue?.code === 'unrecognized_keys' ? ` (${issue.keys.join(', ')})` : '';
  throw new JobInputError(
    `${field ?? 'body'}: ${issue?.message ?? 'invalid'}${keys}. Fields: ${Object.keys(JobInputSchema.shape).join(', ')}.`,
    field,
  );
}

/** The cron package's refusals (bad schedule, blocked prompt, …) are the client's to fix: 400. */
async function asInput<T>(work: () => Promise<T> | T): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isHermesError(error) && error.code.startsWith('cron.bad_')) {
      throw new JobInputError(error.message);
    }
    if (isHermesError(error) && error.code === 'cron.prompt_blocked') {
      throw new JobInputError(error.message, 'prompt');
    }
    throw error;
  }
}

/** The `JobsApi` the API server serves under `/api/jobs`. */
export function cronJobsApi(options: CronJobsApiOptions): JobsApi {
  const { store } = options;
  const env = () => ({ now: (options.clock ?? Date.now)(), timezone: options.timezone });
  const patched = async (
    id: string,
    makePatch: (job: CronJob) => ReturnType<typeof jobPatchFromInput>,
  ) => {
    const job = await store.get(id);
    if (!job) return undefined;
    const patch = await asInput(() => makePatch(job));
    return store.update(id, patch, env().now);
  };
  return {
    list: () => store.list(),
    get: (id) => store.get(id),
    create: async (body) => {
      const input = parseInput(body);
      const now = env();
      return store.create(await asInput(() => newJobFromInput(input, now)), now.now);
    },
    update: async (id, body) => {
      const input = parseInput(body);
      return patched(id, (job) => {
        const patch = jobPatchFromInput(job, input, env());
        if (Object.keys(patch).length > 0) return patch;
        throw new HermesError('cron.bad_arguments', 'the body names no field to change');
      });
    },
    remove: (id) => store.remove(id),
    pause: (id) => patched(id, (job) => enabledPatch(job, false, env())),
    resume: (id) => patched(id, (job) => enabledPatch(job, true, env())),
    run: async (id) => {
      const job = await store.get(id);
      if (!job) return undefined;
      // The run records itself; the answer only says it started.
      void options.scheduler.runNow(id).catch((error) => options.onRunError?.(id, error));
      return job;
    },
  };
}
