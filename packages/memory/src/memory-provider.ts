/** The MemoryProvider seam: an external long-term memory the agent recalls from and writes to. */
import type { ChatMessage, ToolSchema } from '@hermes/protocol';
import type {
  DelegationEvent,
  MemoryInitContext,
  MemorySessionSwitch,
  MemoryToolCallContext,
  MemoryTurn,
  MemoryTurnStart,
  MemoryWriteEvent,
  PrefetchOptions,
} from './memory-types.js';

/**
 * A backend of factual memory (holographic, an external service, …) driven by the memory
 * manager. At most one is active, chosen by `memory.provider`; it works beside the built-in
 * MEMORY.md / USER.md store, never instead of it.
 *
 * Lifecycle: `initialize` once; per turn `onTurnStart`, `prefetch` with the user's message
 * (its text is fenced as recalled data and attached to the request only), then `syncTurn` and
 * `queuePrefetch` after the answer; `onPreCompress` before context compression; `onSessionEnd`
 * only at real session boundaries; `shutdown` once at exit.
 *
 * A provider must never break a turn: the host bounds every call with a timeout and treats a
 * rejection as "no memory this time". Implement the abstract members; the optional members have
 * safe defaults, so a provider written today keeps working when a new optional member is added.
 * Run `describeMemoryProviderContract` from `@hermes/memory/testing` against it.
 */
export abstract class MemoryProvider {
  /** The identifier used in `memory.provider`, for example `holographic`. Never empty. */
  abstract readonly name: string;

  /** Connects, creates files or tables under `context.hermesHome`, warms up. Called once. */
  abstract initialize(context: MemoryInitContext): Promise<void>;

  /**
   * Recalls what is relevant to `query` (the user's message) and resolves to text for the model,
   * or `''` when nothing is relevant. Must honour `options.signal`: once aborted, settle promptly
   * (resolve `''` or reject with an abort error).
   */
  abstract prefetch(query: string, options?: PrefetchOptions): Promise<string>;

  /** Stores what is worth keeping from a finished turn (may do nothing: tool-only providers). */
  abstract syncTurn(turn: MemoryTurn): Promise<void>;

  /** Flushes and disconnects. Safe to call more than once, and without a prior `initialize`. */
  abstract shutdown(): Promise<void>;

  /**
   * Static text for the system prompt (how to use this memory's tools, for example). Read once
   * per session, so it must not change mid-session. Default `''`.
   */
  systemPromptBlock(): string {
    return '';
  }

  /** Starts warming the recall for the next turn in the background. Default: nothing. */
  queuePrefetch(_query: string): Promise<void> {
    return Promise.resolve();
  }

  /** Tools this provider offers the model. Default none. */
  getToolSchemas(): readonly ToolSchema[] {
    return [];
  }

  /**
   * Runs one of this provider's tools and resolves to its result text, or to `undefined` when
   * the tool is not this provider's. Default: `undefined` for every name.
   */
  handleToolCall(
    _name: string,
    _args: Readonly<Record<string, unknown>>,
    _context?: MemoryToolCallContext,
  ): Promise<string | undefined> {
    return Promise.resolve(undefined);
  }

  /** A turn begins. Default: nothing. */
  onTurnStart(_event: MemoryTurnStart): Promise<void> {
    return Promise.resolve();
  }

  /** A session really ended (exit, `/reset`, expiry); the last chance to extract. Default: nothing. */
  onSessionEnd(_messages: readonly ChatMessage[]): Promise<void> {
    return Promise.resolve();
  }

  /** The session id changed mid-process. Default: nothing. */
  onSessionSwitch(_event: MemorySessionSwitch): Promise<void> {
    return Promise.resolve();
  }

  /**
   * Messages are about to be compressed away: extract what matters and resolve to text the
   * context engine should carry into its summary. Default `''`.
   */
  onPreCompress(_messages: readonly ChatMessage[]): Promise<string> {
    return Promise.resolve('');
  }

  /** The built-in MEMORY.md / USER.md store was written; mirror it. Default: nothing. */
  onMemoryWrite(_event: MemoryWriteEvent): Promise<void> {
    return Promise.resolve();
  }

  /** A subagent finished a delegated task. Default: nothing. */
  onDelegation(_event: DelegationEvent): Promise<void> {
    return Promise.resolve();
  }

  /** Absolute paths outside the usual places that `hermes backup` must include. Default none. */
  backupPaths(): readonly string[] {
    return [];
  }
}
