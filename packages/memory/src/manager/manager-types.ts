/** The MemoryManager's options, outcomes and constants. */
import type { AgentEventOf } from '@hermes/protocol';
import type { MemoryProvider } from '../memory-provider.js';

/** How long the per-turn recall may take before the turn goes on without it. */
export const DEFAULT_PREFETCH_TIMEOUT_MS = 8_000;
/** How long any other provider call may take. */
export const DEFAULT_MEMORY_HOOK_TIMEOUT_MS = 10_000;

/** A provider call that failed or timed out, for diagnostics. Carries no user content. */
export interface MemoryProviderFailure {
  readonly provider: string;
  readonly hook: string;
  readonly outcome: 'timeout' | 'failed';
  readonly error?: unknown;
}

/** Options of {@link MemoryManager}. */
export interface MemoryManagerOptions {
  /** The external provider chosen by `memory.provider`, if any. */
  readonly provider?: MemoryProvider;
  /** Default {@link DEFAULT_PREFETCH_TIMEOUT_MS}. */
  readonly prefetchTimeoutMs?: number;
  /** Default {@link DEFAULT_MEMORY_HOOK_TIMEOUT_MS}. */
  readonly hookTimeoutMs?: number;
  /** Receives the `memory_recall` event when a recall was injected. */
  readonly onEvent?: (event: AgentEventOf<'memory_recall'>) => void;
  /** Receives provider failures; they never propagate. */
  readonly onProviderError?: (failure: MemoryProviderFailure) => void;
}

/** What a recall put into the turn, for the "🧠 holographic — recalled 3 memories" line. */
export interface MemoryRecallStatus {
  readonly provider: string;
  /** Discrete memories recalled; 0 for one synthesized answer. */
  readonly count: number;
  /** For example `🧠 holographic — recalled 3 memories`. */
  readonly label: string;
  /** Characters of the fenced block. */
  readonly chars: number;
}

/** The outcome of {@link MemoryManager.prefetchForTurn}. */
export type TurnPrefetchResult =
  | { readonly status: 'skipped'; readonly reason: 'no_provider' | 'trivial' | 'busy' }
  | { readonly status: 'empty' | 'timeout' | 'failed' }
  | {
      readonly status: 'recalled';
      /** The `<memory-context>` block. */
      readonly fenced: string;
      /** The user message plus the block: the message's API sidecar (never its transcript text). */
      readonly apiContent: string;
      readonly recall: MemoryRecallStatus;
    };

/** Where a session really ended; compression splits and session switches are not ends. */
export type MemorySessionEndReason = 'exit' | 'reset' | 'new_session' | 'expired';
