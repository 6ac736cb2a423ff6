/** Why a turn ended: a queryable field, so nobody has to infer it from logs. */
import { z } from 'zod';

/**
 * Every way a turn can end.
 * - `completed`: the model answered without calling tools.
 * - `max_iterations_reached`: the per-turn iteration cap was reached; one summary call without
 *   tools wrote the final answer.
 * - `budget_exhausted`: the shared iteration budget (parent + subagents) ran out.
 * - `run_budget_exhausted`: the wall-clock run budget ran out.
 * - `interrupted_by_user`: an interrupt arrived between steps.
 * - `interrupted_during_api_call`: an interrupt aborted an in-flight model call.
 * - `all_retries_exhausted_no_response`: every retry and fallback failed to produce a response.
 * - `guardrail_halt`: a tool guardrail stopped the turn (for example a repeated failing call).
 * - `review_input_budget_exhausted`: a background review ran out of input budget.
 * - `session_persistence_failed`: a message could not be saved, so the turn stopped before acting
 *   on state that exists only in memory.
 * - `repeated_outer_errors`: processing responses failed too many times in one turn.
 * - `compression_exhausted`: the context stayed too large after the allowed compression attempts.
 * - `error`: an unrecoverable local error.
 * - `unknown`: a path that did not set a reason; seeing it in data is a bug.
 */
export const ExitReasonSchema = z.enum([
  'completed',
  'max_iterations_reached',
  'budget_exhausted',
  'run_budget_exhausted',
  'interrupted_by_user',
  'interrupted_during_api_call',
  'all_retries_exhausted_no_response',
  'guardrail_halt',
  'review_input_budget_exhausted',
  'session_persistence_failed',
  'repeated_outer_errors',
  'compression_exhausted',
  'error',
  'unknown',
]);
export type ExitReason = z.infer<typeof ExitReasonSchema>;
