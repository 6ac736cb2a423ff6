/**
 * `hermes storage copy --from sqlite --to postgres`: every session of `HERMES_HOME/state.db`
 * (archived and compacted rows, children, system prompts) into the configured PostgreSQL
 * database, then a count check per session; and every cron job with its run history and
 * pending deliveries. Re-running it skips sessions and jobs already copied, so an interrupted
 * copy is finished by running it again.
 */
import type { JobStore } from '@hermes/cron';
import type { PostgresJobStore } from '@hermes/cron/postgres';
import type { SessionStore } from '@hermes/state';
import type { PostgresSessionStore } from '@hermes/state/postgres';

/** What {@link copySessions} did. */
export interface CopyReport {
  /** Sessions in the source. */
  readonly sessions: number;
  /** Messages in the source, archived ones included. */
  readonly messages: number;
  /** Sessions written now. */
  readonly copied: number;
  /** Sessions the target already had (an earlier copy). */
  readonly skipped: number;
  /** Sessions whose message count differs between source and target after the copy. */
  readonly mismatched: readonly string[];
}

/** Progress, one call per session. */
export type CopyProgress = (done: number, total: number) => void;

/** Copies every session of `source` into `target` and checks the counts. */
export async function copySessions(
  source: SessionStore,
  target: PostgresSessionStore,
  onProgress?: CopyProgress,
): Promise<CopyReport> {
  // Oldest first: a parent is written before the children compaction split from it.
  const sessions = (await source.listSessions({ includeArchived: true })).sort(
    (a, b) => a.startedAt - b.startedAt,
  );
  let messages = 0;
  let copied = 0;
  let skipped = 0;
  const mismatched: string[] = [];
  for (const [index, session] of sessions.entries()) {
    const doc = await source.export(session.id);
    if (!doc) continue;
    messages += doc.messages.length;
    if (session.systemPromptHash) {
      const prompt = await source.getSystemPrompt(session.systemPromptHash);
      if (prompt !== undefined) await target.saveSystemPrompt(session.systemPromptHash, prompt);
    }
    const result = await target.importSession(doc);
    if (result === 'imported') copied += 1;
    else skipped += 1;
    const stored = await target.getMessages(session.id, { includeInactive: true });
    if (stored.length !== doc.messages.length) mismatched.push(session.id);
    onProgress?.(index + 1, sessions.length);
  }
  return { sessions: sessions.length, messages, copied, skipped, mismatched };
}

/** What {@link copyJobs} did. */
export interface JobCopyReport {
  /** Readable jobs in the source (a row with corrupt JSON is not listed, nor copied). */
  readonly jobs: number;
  /** Jobs written now, with their history. */
  readonly copied: number;
  /** Jobs the target already had (an earlier copy); their history is left as it is. */
  readonly skipped: number;
  /** Runs and pending deliveries written with the copied jobs. */
  readonly runs: number;
  readonly pending: number;
}

/**
 * Copies every job of `source` into `target` as it stands (same id, schedule, next run and
 * counters), with its run history and the deliveries it still owes. Each job is one
 * transaction. Stop the old scheduler first: a job that runs during the copy may run on both.
 */
export async function copyJobs(source: JobStore, target: PostgresJobStore): Promise<JobCopyReport> {
  const jobs = await source.list();
  const owed = await source.listPendingDeliveries();
  let copied = 0;
  let runs = 0;
  let pending = 0;
  for (const job of jobs) {
    const history = {
      // listRuns is newest first; written oldest first, the new ids keep their order.
      runs: (await source.listRuns(job.id)).reverse(),
      pending: owed.filter((delivery) => delivery.jobId === job.id),
    };
    if ((await target.importJob(job, history)) === 'exists') continue;
    copied += 1;
    runs += history.runs.length;
    pending += history.pending.length;
  }
  return { jobs: jobs.length, copied, skipped: jobs.length - copied, runs, pending };
}
