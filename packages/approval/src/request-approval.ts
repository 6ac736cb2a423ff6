/** A fail-closed envelope around {@link ApprovalHandler.request}. */
import { type AgentEventOf, type ApprovalDecision, ApprovalDecisionSchema } from '@hermes/protocol';
import type { ApprovalContext } from './approval-context.js';
import type { ApprovalHandler } from './approval-handler.js';

/** Who settled an approval request, in the vocabulary of the `approval_resolution` event. */
export type ApprovalDecider = AgentEventOf<'approval_resolution'>['decidedBy'];

/**
 * Why {@link requestApproval} denied on the handler's behalf:
 * - `aborted`: `ctx.signal` aborted before the handler answered;
 * - `timeout`: `ctx.timeoutMs` elapsed before the handler answered;
 * - `handler_error`: the handler threw or rejected;
 * - `invalid_answer`: the handler resolved something other than the four decisions.
 */
export type ApprovalFailure = 'aborted' | 'timeout' | 'handler_error' | 'invalid_answer';

/** The settled result of one approval request. */
export interface ApprovalOutcome {
  /** The ruling to act on. */
  readonly decision: ApprovalDecision;
  /** `user` when the handler answered; `timeout` or `policy` when the envelope denied. */
  readonly decidedBy: ApprovalDecider;
  /** Present when the envelope denied instead of the handler. */
  readonly failure?: ApprovalFailure;
  /** The handler's error, or its invalid answer, for diagnostics. */
  readonly cause?: unknown;
}

/** True for the decisions that let the command run: `once`, `session` and `always`. */
export function isApproved(decision: ApprovalDecision): boolean {
  return decision !== 'deny';
}

/**
 * Asks `handler` for a ruling and never fails open: an abort of `ctx.signal`, the end of
 * `ctx.timeoutMs`, a thrown or rejected handler and an answer that is not one of the four
 * decisions all settle as `deny`, immediately, without waiting for the handler. The handler
 * receives its own abort signal, aborted once the outcome is settled, so it can withdraw a prompt
 * nobody will answer. Never rejects.
 */
export function requestApproval(
  handler: ApprovalHandler,
  command: string,
  reason: string,
  ctx: ApprovalContext,
): Promise<ApprovalOutcome> {
  const outer = ctx.signal;
  if (outer?.aborted) {
    return Promise.resolve({ decision: 'deny', decidedBy: 'policy', failure: 'aborted' });
  }
  const inner = new AbortController();
  return new Promise<ApprovalOutcome>((resolve) => {
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = (): void => {
      finish({ decision: 'deny', decidedBy: 'policy', failure: 'aborted' });
    };
    function finish(outcome: ApprovalOutcome): void {
      if (settled) return;
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
      inner.abort();
      resolve(outcome);
    }
    outer?.addEventListener('abort', onAbort, { once: true });
    if (ctx.timeoutMs !== undefined) {
      timer = setTimeout(
        () => finish({ decision: 'deny', decidedBy: 'timeout', failure: 'timeout' }),
        Math.max(0, ctx.timeoutMs),
      );
    }
    let pending: Promise<ApprovalDecision>;
    try {
      pending = handler.request(command, reason, { ...ctx, signal: inner.signal });
    } catch (error) {
      finish({ decision: 'deny', decidedBy: 'policy', failure: 'handler_error', cause: error });
      return;
    }
    Promise.resolve(pending).then(
      (answer: unknown) => {
        const parsed = ApprovalDecisionSchema.safeParse(answer);
        if (parsed.success) finish({ decision: parsed.data, decidedBy: 'user' });
        else {
          finish({
            decision: 'deny',
            decidedBy: 'policy',
            failure: 'invalid_answer',
            cause: answer,
          });
        }
      },
      (error: unknown) => {
        finish({ decision: 'deny', decidedBy: 'policy', failure: 'handler_error', cause: error });
      },
    );
  });
}
