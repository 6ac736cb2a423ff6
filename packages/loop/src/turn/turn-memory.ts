/**
 * What the turn needs from memory, as a narrow seam: prefetch before the first request, sync after
 * the answer, and a say before compression. `@hermes/memory`'s MemoryManager provides it through
 * `createAgent`; a library user may pass their own or none.
 */
import type { ChatMessage } from '@hermes/protocol';

/** Recalled memory for one user message. */
export interface RecalledMemory {
  /** The text attached to the user message's API sidecar (already fenced). */
  readonly fenced: string;
  /** The provider that answered. */
  readonly provider: string;
  /** How many memories it recalled (for the "recalled N memories" notice). */
  readonly count: number;
}

/** The turn's memory hooks. Every member is optional and must not throw into the turn. */
export interface TurnMemory {
  /** The frozen snapshot block for the system prompt (read once per session). */
  systemPromptBlock?(): string | Promise<string>;
  /** Recall for the user's message; undefined when nothing was recalled or it was skipped. */
  prefetch?(userText: string, signal: AbortSignal): Promise<RecalledMemory | undefined>;
  /** After the turn: hand the exchange to the external provider. */
  syncTurn?(
    userText: string,
    assistantText: string,
    messages: readonly ChatMessage[],
  ): Promise<void>;
  /** Before a compression: text the provider wants the summary to keep. */
  onPreCompress?(messages: readonly ChatMessage[]): Promise<string>;
}
