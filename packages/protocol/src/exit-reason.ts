/** Why a turn ended: a queryable field, so nobody has to infer it from logs. */
import { z } from 'zod';

/**
 * Every way a turn can end.
 * - `completed`: the model answered without calling tools.
 * - `max_iterations`: the per-turn iteration cap was reached (a summary call without tools follows).
 * - `budget_exhausted`: the shared iteration budget (parent + subagents) ran out.
 * - `run_budget_exhausted`: the wall-clock run budget ran out.
 * - `interrupted_by_user`: an interrupt arrived between steps.
 * - `interrupted_during_api_call`: an interrupt aborted an in-flight model call.
 * - `all_retries_exhausted_no_response`: every retry and fallback failed to produce a response.
 * - `guardrail_halt`: a tool guardrail stopped the turn (for example a repeated failing call).
 * - `review_input_budget_exhausted`: a background review ran out of input budget.
 * - `error`: an unrecoverable local error.
 * - `unknown`: a path that did not set a reason; seeing it in data is a bug.
 */
export const ExitReasonSchema = z.enum([
  'completed',
  'max_iterations',
  'budget_exhausted',
  'run_budget_exhausted',
  'interrupted_by_user',
  'interrupted_during_api_call',
  'all_retries_exhausted_no_response',
  'guardrail_halt',
  'review_input_budget_exhausted',
  'error',
  'unknown',
]);
export type ExitReason = z.infer<typeof ExitReasonSchema>;
