/**
 * Test doubles at the executor's seams, through their abstract classes: an agent that answers
 * from a script and records what it was asked, and a delivery that records or refuses sends.
 */

import { onTestFinished } from 'vitest';
import type { ChatTarget, CronJob, NewJob } from '../../src/job.js';
import {
  type CronAgentRequest,
  type CronAgentResult,
  CronAgentRunner,
  CronDelivery,
} from '../../src/run/seams.js';
import type { JobStore } from '../../src/store/job-store.js';
import { openSqliteJobStore, type SqliteJobStore } from '../../src/store/sqlite-job-store.js';

/** One scripted turn: a result, a thrown error, or a function of the request. */
export type ScriptedTurn =
  | CronAgentResult
  | Error
  | ((request: CronAgentRequest) => Promise<CronAgentResult>);

/** Answers each run with the next scripted turn (the last one repeats). */
export class ScriptedAgent extends CronAgentRunner {
  readonly requests: CronAgentRequest[] = [];
  private readonly turns: ScriptedTurn[];

  constructor(...turns: ScriptedTurn[]) {
    super();
    this.turns = turns.length > 0 ? turns : [{ text: 'done' }];
  }

  async run(request: CronAgentRequest): Promise<CronAgentResult> {
    this.requests.push(request);
    const turn = this.turns[Math.min(this.requests.length - 1, this.turns.length - 1)];
    if (turn instanceof Error) throw turn;
    if (typeof turn === 'function') return turn(request);
    return turn as CronAgentResult;
  }
}

/** One recorded send. */
export interface Sent {
  readonly target: ChatTarget;
  readonly text: string;
  readonly jobId: string;
}

/** A live delivery that records sends, or throws `failWith` while it is set. */
export class RecordingDelivery extends CronDelivery {
  readonly live = true;
  readonly sent: Sent[] = [];
  failWith: string | undefined;

  async deliver(target: ChatTarget, text: string, job: CronJob): Promise<void> {
    if (this.failWith !== undefined) throw new Error(this.failWith);
    this.sent.push({ target, text, jobId: job.id });
  }
}

/** The chat most test jobs come from. */
export const ORIGIN = { platform: 'telegram', chatId: '4242', sessionId: 'sess-1' } as const;

/** Creates an interval job with sensible defaults in `store`. */
export function createJob(store: JobStore, overrides: Partial<NewJob> = {}): Promise<CronJob> {
  return store.create(
    {
      name: 'inbox digest',
      prompt: 'Summarize my inbox.',
      schedule: { kind: 'interval', minutes: 60 },
      scheduleText: 'every 1h',
      deliver: { kind: 'origin' },
      origin: ORIGIN,
      nextRunAt: 0,
      ...overrides,
    },
    1_000,
  );
}

/** A signal that never aborts. */
export function neverAborted(): AbortSignal {
  return new AbortController().signal;
}

/** A real `SqliteJobStore` in this test's HERMES_HOME, closed when the test finishes. */
export function openTestStore(): SqliteJobStore {
  const store = openSqliteJobStore(process.env.HERMES_HOME ?? '');
  onTestFinished(() => store.close());
  return store;
}
