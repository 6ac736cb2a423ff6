/** The seam through which a person (or a stand-in for one) rules on a command. */
import type { ApprovalDecision } from '@hermes/protocol';
import type { ApprovalContext } from './approval-context.js';

/**
 * Asks someone whether a command the command guard flagged may run, and returns their ruling.
 *
 * The interactive CLI implements it with an `[o]nce / [s]ession / [a]lways / [d]eny` prompt; the
 * gateway implements it by posting the command and its reason to the chat and waiting for
 * `/approve`, `/approve session`, `/approve always` or `/deny`. Which handler (if any) is asked is
 * decided by the caller from the context: cron jobs, headless single queries and subagents are
 * ruled on by policy and never reach a handler.
 *
 * Every handler fails closed:
 * - a handler that cannot reach a human (no terminal, the chat is gone, the transport failed)
 *   resolves `deny`; it never resolves an allowing decision by default;
 * - when `ctx.signal` is aborted (already, or while waiting) it resolves `deny` promptly and
 *   withdraws its prompt;
 * - when `ctx.timeoutMs` elapses without an answer it resolves `deny`.
 *
 * Callers should still go through {@link requestApproval}, which enforces those rules even for a
 * handler that breaks them, and reports who decided.
 *
 * The seam has no optional members yet. Any added later will have a safe default, so a handler
 * written against this version keeps working.
 */
export abstract class ApprovalHandler {
  /**
   * Asks for a ruling on `command` and resolves with it.
   *
   * @param command - The exact command that would run, shown to the person in full.
   * @param reason - Why the guard flagged it (for example "recursive delete"), shown beside it.
   * @param ctx - The session, platform, pattern key, abort signal and timeout of the request.
   * @returns `once` (run it this time), `session` (allow its pattern for the rest of the
   *   session), `always` (add the pattern to the permanent allowlist) or `deny`. Resolves `deny`
   *   when no human can be reached, when `ctx.signal` aborts, or when `ctx.timeoutMs` elapses.
   */
  abstract request(
    command: string,
    reason: string,
    ctx: ApprovalContext,
  ): Promise<ApprovalDecision>;
}
