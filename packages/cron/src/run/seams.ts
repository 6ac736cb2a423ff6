/**
 * The two seams a job run is built on: something that runs an agent turn for a job, and
 * something that delivers text to a chat. The runtime implements both (a real Agent; the
 * gateway's delivery step with its ledger); tests implement them through these classes.
 */
import type { ChatTarget, CronJob } from '../job.js';

/** What the executor asks an agent to do for a job. */
export interface CronAgentRequest {
  readonly job: CronJob;
  /** The assembled, scanned prompt (job prompt plus loaded skills). */
  readonly prompt: string;
  /** Aborted when the scheduler stops or the run budget is spent. */
  readonly signal: AbortSignal;
}

/** How an agent turn for a job ended. */
export interface CronAgentResult {
  /** The final answer; empty when the turn produced none. */
  readonly text: string;
  /** Set when the turn failed (provider error, budget, interrupted): never reported as `ok`. */
  readonly failure?: string;
  /** The session the turn used (platform `cron`). */
  readonly sessionId?: string;
}

/** Runs one unattended agent turn: fresh session, `hermes-cron` toolset, `approvals.cron_mode`. */
export abstract class CronAgentRunner {
  abstract run(request: CronAgentRequest): Promise<CronAgentResult>;
}

/** Sends text to a chat. Throws when it could not (the error's message says why). */
export abstract class CronDelivery {
  /** True when a gateway is there to deliver now; false for a delivery that only queues. */
  abstract readonly live: boolean;
  abstract deliver(target: ChatTarget, text: string, job: CronJob): Promise<void>;
}
