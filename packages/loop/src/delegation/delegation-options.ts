/** How `delegate_task` builds and bounds child agents. */
import type { ContextEngine } from '@hermes/context-engine';

/** Tools a child never gets: no recursion, no questions to the user, no shared memory writes. */
export const CHILD_BLOCKED_TOOLS: ReadonlySet<string> = new Set([
  'delegate_task',
  'clarify',
  'memory',
  'send_message',
  'execute_code',
  'cronjob',
]);

/** Options of delegation. */
export interface DelegationOptions {
  /** A fresh context engine per child (engines keep per-session state). */
  readonly createContextEngine: () => ContextEngine;
  /** Children one call may start; a larger batch is rejected, not truncated. Default 3. */
  readonly maxConcurrent?: number;
  /** Iterations per child. Default 50. */
  readonly maxIterations?: number;
  /** Characters of each child's answer passed back to the parent. Default 24,000. */
  readonly maxSummaryChars?: number;
  /**
   * Let children run commands that need approval the way the parent would. Default false:
   * children deny every command that needs a ruling.
   */
  readonly allowDangerous?: boolean;
}

/** Defaults of {@link DelegationOptions}. */
export const DELEGATION_DEFAULTS = {
  maxConcurrent: 3,
  maxIterations: 50,
  maxSummaryChars: 24_000,
} as const;
