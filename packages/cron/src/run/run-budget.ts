/**
 * Running the agent under a budget: the signal it gets aborts when the scheduler stops or the
 * run budget is spent, and the run ends then even if the agent ignores its signal — a stuck job
 * must not hold its lease (and a gateway shutdown) forever.
 */
import { describeThrown } from '@hermes/tools';
import type { CronJob } from '../job.js';
import type { CronAgentResult, CronAgentRunner } from './seams.js';

/** The default run budget: 30 minutes. */
export const DEFAULT_RUN_TIMEOUT_MS = 1_800_000;

function budgetText(ms: number): string {
  if (ms >= 60_000) return `${Math.round(ms / 60_000)} min`;
  return ms >= 1_000 ? `${Math.round(ms / 1_000)} s` : `${ms} ms`;
}

/**
 * Runs one agent turn for `job` with `prompt`. Never throws: a thrown error, an abort and a
 * spent budget all come back as a result with `failure` set.
 */
export async function runAgentWithBudget(
  agent: CronAgentRunner,
  job: CronJob,
  prompt: string,
  signal: AbortSignal,
  runTimeoutMs: number,
): Promise<CronAgentResult> {
  const controller = new AbortController();
  let reason = '';
  const stop = (why: string): void => {
    if (controller.signal.aborted) return;
    reason = why;
    controller.abort(new Error(why));
  };
  const onOuterAbort = (): void => stop('the run was stopped (scheduler shutting down)');
  if (signal.aborted) onOuterAbort();
  else signal.addEventListener('abort', onOuterAbort, { once: true });
  const timer = setTimeout(
    () => stop(`the run budget of ${budgetText(runTimeoutMs)} was spent`),
    runTimeoutMs,
  );
  const aborted = new Promise<CronAgentResult>((resolve) => {
    const settle = (): void => resolve({ text: '', failure: reason });
    if (controller.signal.aborted) settle();
    else controller.signal.addEventListener('abort', settle, { once: true });
  });
  try {
    // Through a `then` so an implementation that throws synchronously is still a failed result.
    const run = Promise.resolve()
      .then(() => agent.run({ job, prompt, signal: controller.signal }))
      .then(
        (result) => result,
        (error: unknown): CronAgentResult => ({ text: '', failure: describeThrown(error) }),
      );
    const result = await Promise.race([run, aborted]);
    // An agent that returns normally after its signal fired still ran out of budget / was stopped.
    if (controller.signal.aborted && result.failure === undefined) {
      return { ...result, failure: reason };
    }
    return result;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onOuterAbort);
  }
}
