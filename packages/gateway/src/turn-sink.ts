/** Where one turn's progress and outcome go when an adapter answers over its own channel. */
import type { AgentEvent, ExitReason, Usage } from '@hermes/protocol';

/** How a turn ended, as the pipeline reports it to a {@link TurnSink}. */
export interface TurnOutcome {
  /** The stored session the turn ran in. */
  readonly sessionId: string;
  /** The answer, secrets redacted; a provider error turned into one human sentence. */
  readonly text: string;
  readonly exitReason: ExitReason;
  /** The turn could not produce an answer (provider error, crash); `text` says why. */
  readonly failed: boolean;
  readonly usage: Usage;
  /** The model that answered. */
  readonly model: string;
}

/**
 * Receives one inbound message's results. The pipeline calls `event` for every agent event of
 * the turn (already redacted where they carry text for people), `notice` for the gateway's own
 * lines ("queued behind the running turn", "session reset after 24 h idle", a slash command's
 * answer), then exactly one of `finish` or `fail`. Implementations must not throw; the pipeline
 * contains what they throw and carries on.
 */
export interface TurnSink {
  event(event: AgentEvent): void;
  notice(text: string): void;
  finish(outcome: TurnOutcome): void;
  /** The message produced no turn (refused, a slash command's error, shutting down). */
  fail(error: { readonly code: string; readonly message: string }): void;
}
