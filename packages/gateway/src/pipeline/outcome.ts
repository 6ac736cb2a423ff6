/** A finished turn as the sinks see it: redacted text, failures as one human sentence. */
import type { TurnResult } from '@hermes/loop';
import { providerErrorSentence } from '../delivery/provider-error-sentence.js';
import { redactForChat } from '../delivery/redact-for-chat.js';
import type { TurnOutcome } from '../turn-sink.js';

/** The {@link TurnOutcome} of `result`, answered by `model`. */
export function outcomeOf(result: TurnResult, model: string): TurnOutcome {
  const text = result.failed
    ? providerErrorSentence({ message: result.error ?? result.exitReason })
    : redactForChat(result.finalResponse);
  return {
    sessionId: result.sessionId,
    text,
    exitReason: result.exitReason,
    failed: result.failed,
    usage: result.usage,
    model,
  };
}
