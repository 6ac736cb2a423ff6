/**
 * Persist-before-act: every message reaches the session store before the turn acts on it. Each
 * message object is written once however many exit paths flush it; a failed write surfaces as a
 * {@link PersistenceFailedError}, which ends the turn (`session_persistence_failed`).
 */
import type { ChatMessage, FinishReason, MessageContent } from '@hermes/protocol';
import { HermesError } from '@hermes/protocol';
import type { AppendMessageInput, SessionStore } from '@hermes/state';

/** The code of {@link PersistenceFailedError}. */
export const PERSISTENCE_FAILED_CODE = 'loop.session_persistence_failed';

/** A message could not be saved; the turn must stop before acting on it. */
export class PersistenceFailedError extends HermesError {
  constructor(cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(PERSISTENCE_FAILED_CODE, `Could not save the conversation: ${reason}`, {
      cause,
      retryable: false,
    });
  }
}

/** Writes one session's messages, each exactly once. */
export class SessionWriter {
  readonly store: SessionStore;
  #sessionId: string;
  readonly #persisted = new WeakSet<ChatMessage>();
  /** Content actually sent for a message, when it differs from what is shown (sidecar). */
  readonly apiContent = new WeakMap<ChatMessage, MessageContent>();
  /** Normalized finish reasons of assistant messages. */
  readonly finishReasons = new WeakMap<ChatMessage, FinishReason>();

  constructor(store: SessionStore, sessionId: string) {
    this.store = store;
    this.#sessionId = sessionId;
  }

  /** The session written to (changes when a compaction moves to a child session). */
  get sessionId(): string {
    return this.#sessionId;
  }

  /** Whether `message` is already saved. */
  isPersisted(message: ChatMessage): boolean {
    return this.#persisted.has(message);
  }

  /** Marks messages loaded from the store as saved. */
  markPersisted(messages: readonly ChatMessage[]): void {
    for (const message of messages) this.#persisted.add(message);
  }

  /** Saves every message of `messages` not saved yet, in order. */
  async persist(messages: readonly ChatMessage[]): Promise<void> {
    const pending = unpersistedTail(messages, this.#persisted);
    if (pending.length === 0) return;
    try {
      await this.store.appendMessages(
        this.#sessionId,
        pending.map((m) => this.#input(m)),
      );
    } catch (error) {
      throw new PersistenceFailedError(error);
    }
    for (const message of pending) this.#persisted.add(message);
  }

  /** Replaces the active conversation after a compaction; old rows are archived, not deleted. */
  async compact(replacement: readonly ChatMessage[]): Promise<void> {
    try {
      const result = await this.store.archiveAndCompact(this.#sessionId, {
        replacement: replacement.map((m) => this.#input(m)),
      });
      this.#sessionId = result.sessionId;
    } catch (error) {
      throw new PersistenceFailedError(error);
    }
    for (const message of replacement) this.#persisted.add(message);
  }

  #input(message: ChatMessage): AppendMessageInput {
    const apiContent = this.apiContent.get(message);
    const finishReason = this.finishReasons.get(message);
    return {
      message,
      ...(apiContent === undefined ? {} : { apiContent }),
      ...(finishReason === undefined ? {} : { finishReason }),
    };
  }
}

/**
 * The messages not yet saved. The conversation only grows at its end between saves (a compaction
 * saves its whole replacement), so the walk stops at the first saved message from the end
 * instead of scanning a long history on every save.
 */
function unpersistedTail(
  messages: readonly ChatMessage[],
  persisted: WeakSet<ChatMessage>,
): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i] as ChatMessage;
    if (persisted.has(message)) break;
    if (message.role !== 'system') out.push(message);
  }
  return out.reverse();
}
