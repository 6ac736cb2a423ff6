/**
 * The contract between the command guard and whoever runs commands (the `terminal` and `process`
 * tools, the agent loop): one call that applies the whole pipeline — checkCommand, smart mode, the
 * context's policy or the ApprovalHandler — and says whether the command may run.
 */
import type { ApprovalContext } from './approval-context.js';
import type { Verdict } from './verdict.js';

/**
 * Who is (or is not) there to rule on an `ask`: an interactive CLI or gateway chat, a cron job, a
 * headless single query, or a subagent.
 */
export type ApprovalSurface = 'interactive' | 'cron' | 'single_query' | 'subagent';

/** One request to run a command. */
export interface CommandApprovalRequest extends ApprovalContext {
  /** Decides who rules on `ask` (see {@link ApprovalSurface}). */
  readonly surface: ApprovalSurface;
}

/** The outcome: whether the command may run, and the verdict that decided it. */
export interface CommandApprovalOutcome {
  readonly allowed: boolean;
  readonly verdict: Verdict;
}

/** Implemented by `CommandApprover`; tools depend only on this shape. */
export interface CommandApproval {
  /** Runs the whole approval pipeline for `command`. Never throws for a refused command. */
  approve(command: string, request: CommandApprovalRequest): Promise<CommandApprovalOutcome>;
  /** The file-write guard for `write_file` / `patch`: `allow` or `block` with a reason. */
  checkFileWrite(path: string): Verdict;
}
