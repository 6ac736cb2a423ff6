/** Arguments of the MemoryProvider's members. */

/**
 * Which kind of agent runs: the person's own agent, a delegated subagent, a cron job, or a
 * background review fork. Providers often skip writes outside `primary`.
 */
export type AgentContext = 'primary' | 'subagent' | 'cron' | 'background_review';

/** What a provider learns when it starts. */
export interface MemoryInitContext {
  /** The Hermes data home; a provider keeps its files under it (never in the real home in tests). */
  readonly hermesHome: string;
  /** The session the agent serves now (it may change: see `onSessionSwitch`). */
  readonly sessionId: string;
  /** Where the conversation happens: `cli`, `telegram`, `cron`, … */
  readonly platform: string;
  /** The platform's id of the person, when known. */
  readonly userId?: string;
  /** Default `primary`. */
  readonly agentContext?: AgentContext;
  /** The provider's own config section (`memory.<name>` in config.yaml), unvalidated. */
  readonly config?: Readonly<Record<string, unknown>>;
}

/** Options of `prefetch`. */
export interface PrefetchOptions {
  /** Cancels the recall; the host aborts it when its time budget (8 s by default) runs out. */
  readonly signal?: AbortSignal;
}

/** One finished turn, handed over for storage. */
export interface MemoryTurn {
  /** What the user said (skill scaffolding stripped). */
  readonly userMessage: string;
  /** The agent's final answer. */
  readonly assistantMessage: string;
  readonly sessionId: string;
}

/** The start of a turn. */
export interface MemoryTurnStart {
  /** 1 for the session's first turn. */
  readonly turn: number;
  /** The user's message. */
  readonly message: string;
  readonly sessionId: string;
}

/** The session id changed mid-process (compression into a child session, `/new`). */
export interface MemorySessionSwitch {
  readonly previousSessionId: string;
  readonly newSessionId: string;
}

/** A write to the built-in MEMORY.md / USER.md store, mirrored to the provider. */
export interface MemoryWriteEvent {
  readonly action: 'add' | 'replace' | 'remove';
  /** `memory` for MEMORY.md (the agent's notes), `user` for USER.md (the user profile). */
  readonly target: 'memory' | 'user';
  /** The new entry text (for `remove`, the removed entry). */
  readonly content: string;
  /** The replaced entry, for `replace`. */
  readonly previousContent?: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** A subagent finished a delegated task, observed from the parent. */
export interface DelegationEvent {
  /** The task as the parent stated it. */
  readonly task: string;
  /** The subagent's final result. */
  readonly result: string;
  readonly parentSessionId: string;
  readonly childSessionId?: string;
}

/** Facts available to a provider-owned tool call. */
export interface MemoryToolCallContext {
  readonly sessionId?: string;
  readonly signal?: AbortSignal;
}
