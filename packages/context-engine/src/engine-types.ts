/** Arguments and results of the ContextEngine's optional members. */
import type { ChatMessage } from '@hermes/protocol';
import { z } from 'zod';

/** Extra facts for `selectContext`. */
export interface SelectContextInput {
  /** The whole persisted conversation, of which the request messages are a copy. */
  readonly conversationMessages?: readonly ChatMessage[];
  /** The user's message that started this turn. */
  readonly incomingMessage?: ChatMessage;
  /** Tokens the selection may use; 0 or absent means "no budget given". */
  readonly budgetTokens?: number;
}

/** What `pruneToolResultsOnly` returns. */
export interface PruneResult {
  /** The pruned conversation; the very input array when nothing was pruned. */
  readonly messages: readonly ChatMessage[];
  /** Estimated tokens saved; 0 when nothing was pruned. */
  readonly reclaimedTokens: number;
}

/** Options of `pruneToolResultsOnly`. */
export interface PruneOptions {
  /** The best known size of the conversation in tokens. */
  readonly currentTokens?: number;
}

/** Facts available when a session starts. */
export interface SessionStartContext {
  readonly model?: string;
  readonly contextLength?: number;
  readonly platform?: string;
  /** True when an existing session was resumed rather than created. */
  readonly resumed?: boolean;
  /** Persisted compressions of a resumed session (the session record's counter). */
  readonly compressionCount?: number;
  /** Persisted pause of the summarizer after failures, ms since the epoch; `null` when none. */
  readonly compressionCooldownUntil?: number | null;
  /** Persisted consecutive ineffective compressions (the breaker input). */
  readonly compressionFailureStreak?: number;
  /** Persisted re-arm line of the proactive prune, in tokens. */
  readonly pruneRearmTokens?: number;
}

/** The model the engine now serves, after a switch or at start. Secrets are never passed. */
export interface ModelUpdate {
  readonly model: string;
  /** The model's context window in tokens. */
  readonly contextLength: number;
  readonly provider?: string;
  readonly baseUrl?: string;
  readonly apiMode?: string;
}

/** Facts available to an engine-owned tool call. */
export interface EngineToolCallContext {
  readonly sessionId?: string;
  readonly signal?: AbortSignal;
}

/**
 * What `getStatus` reports for status bars, `/context` and `/usage`. Engines may add fields of
 * their own, so unknown keys are kept.
 */
export const ContextEngineStatusSchema = z.looseObject({
  /** The engine's name. */
  engine: z.string().min(1),
  /** Successful compressions this session. */
  compressionCount: z.number().int().nonnegative(),
  model: z.string().optional(),
  contextLength: z.number().int().positive().optional(),
  /** The prompt size at which automatic compression fires. */
  thresholdTokens: z.number().int().nonnegative().optional(),
  /** Prompt tokens of the last model call. */
  lastPromptTokens: z.number().int().nonnegative().optional(),
});
export type ContextEngineStatus = z.infer<typeof ContextEngineStatusSchema>;
