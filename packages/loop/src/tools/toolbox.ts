/**
 * What the loop needs from its tools: the schemas to expose, dispatch that never throws, and the
 * facts the executor uses to decide what may run in parallel. `@hermes/tools`' registry provides
 * it (see `registryToolbox`); tests may provide their own.
 */
import type { ToolSchema } from '@hermes/protocol';
import type { ToolContext, ToolResultImage } from '@hermes/tools';

/** How one call ended. `cancelled` is produced by the loop, never by dispatch. */
export type ToolOutcome = 'ok' | 'error' | 'blocked' | 'cancelled';

/** One tool result. */
export interface ToolCallResult {
  readonly content: string;
  readonly status: ToolOutcome;
  readonly durationMs: number;
  /** Images the tool returned; attached to the tool message as image parts after the text. */
  readonly images?: readonly ToolResultImage[];
}

/** A call as the planner sees it. */
export interface PlannableCall {
  readonly id: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
}

/** A run of calls executed together (`parallel`) or one after another (`sequential`). */
export interface ToolBatch<C extends PlannableCall = PlannableCall> {
  readonly mode: 'parallel' | 'sequential';
  readonly calls: readonly C[];
}

/** The loop's view of its tools. */
export interface Toolbox {
  /** Schemas exposed to the model for the next request. */
  schemas(): readonly ToolSchema[] | Promise<readonly ToolSchema[]>;
  /** Names a call may use (as of the latest `schemas()`). */
  names(): readonly string[];
  /** Runs one call. Never throws: failures come back as `error` results. */
  dispatch(name: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolCallResult>;
  /**
   * Splits one response's calls, in order, into batches: parallel-safe calls on disjoint paths
   * together, exclusive or conflicting calls alone. `sequentialPlan` is the safe default.
   */
  plan<C extends PlannableCall>(calls: readonly C[]): ToolBatch<C>[];
}

/** Runs every call on its own, in order: the plan for toolboxes with no parallel-safe tools. */
export function sequentialPlan<C extends PlannableCall>(calls: readonly C[]): ToolBatch<C>[] {
  return calls.length ? [{ mode: 'sequential', calls }] : [];
}
