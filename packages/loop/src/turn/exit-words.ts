/** What each way a turn can end means, in words a person reads in a failure line. */
import type { ExitReason } from '@hermes/protocol';

const EXIT_WORDS: Readonly<Record<ExitReason, string>> = {
  completed: 'the turn completed',
  max_iterations_reached: 'the turn used all its model calls',
  budget_exhausted: 'the iteration budget ran out',
  run_budget_exhausted: 'the run budget ran out',
  interrupted_by_user: 'the turn was interrupted',
  interrupted_during_api_call: 'the turn was interrupted during a model call',
  all_retries_exhausted_no_response: 'the model could not be reached or gave no answer',
  guardrail_halt: 'a tool guardrail stopped the turn',
  review_input_budget_exhausted: 'the review ran out of input budget',
  session_persistence_failed: 'the session could not be saved',
  repeated_outer_errors: 'the turn hit repeated errors',
  compression_exhausted: 'the conversation is too long even after compression',
  error: 'the turn failed',
  unknown: 'the turn failed',
};

/** A short sentence for `reason` (`'the run budget ran out'`); unknown text reads as a failure. */
export function describeExitReason(reason: ExitReason | string): string {
  return (EXIT_WORDS as Readonly<Record<string, string>>)[reason] ?? 'the turn failed';
}
