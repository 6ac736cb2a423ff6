/** What one turn returns. */
import type { ChatMessage, ExitReason, Usage } from '@hermes/protocol';

/** The outcome of `Agent.runConversation`. */
export interface TurnResult {
  /** The answer shown to the user ('' when the turn produced none). */
  readonly finalResponse: string;
  /** The whole active conversation after the turn (system prompt excluded). */
  readonly messages: readonly ChatMessage[];
  /** Model calls made in this turn. */
  readonly apiCalls: number;
  /** The model answered (exit reason `completed` or a max-iterations summary). */
  readonly completed: boolean;
  /** The user interrupted the turn. */
  readonly interrupted: boolean;
  /** The turn ended on an error (persistence, retries, repeated errors, compression). */
  readonly failed: boolean;
  readonly exitReason: ExitReason;
  /** Token usage of this turn's model calls. */
  readonly usage: Usage;
  /** Estimated cost of this turn, USD (0 for models without a known price). */
  readonly costUsd: number;
  /** Steer notes that never reached the model; the caller decides what to do with them. */
  readonly pendingSteer?: string;
  /** The session the turn was written to. */
  readonly sessionId: string;
  /** A human-readable reason when `failed`. */
  readonly error?: string;
}

/** Exit reasons that mean the turn failed. */
export const FAILED_EXITS: ReadonlySet<ExitReason> = new Set<ExitReason>([
  'all_retries_exhausted_no_response',
  'session_persistence_failed',
  'repeated_outer_errors',
  'compression_exhausted',
  'guardrail_halt',
  'error',
  'unknown',
]);
