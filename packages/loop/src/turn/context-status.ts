/** The size of a conversation, for hosts that decide about compression between turns. */
import type { ContextEngine } from '@hermes/context-engine';
import type { ChatMessage } from '@hermes/protocol';
import { estimateTokens } from './turn-state.js';

/** What `Agent.contextStatus()` reports. */
export interface ContextStatus {
  /** Messages in the active conversation (system prompt excluded). */
  readonly messages: number;
  /** A rough token count of those messages (characters / 4 plus overhead). */
  readonly estimatedTokens: number;
  /** The model's context window, when the context engine knows it. */
  readonly contextLength?: number;
}

/** The status of `messages` under `engine`. */
export function contextStatusOf(
  messages: readonly ChatMessage[],
  engine: ContextEngine,
): ContextStatus {
  const { contextLength } = engine.getStatus();
  return {
    messages: messages.length,
    estimatedTokens: estimateTokens(messages),
    ...(contextLength === undefined ? {} : { contextLength }),
  };
}
