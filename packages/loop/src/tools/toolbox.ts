/**
 * What the loop needs from its tools: the schemas to expose, dispatch that never throws, and the
 * facts the executor uses to decide what may run in parallel. `@hermes/tools`' registry provides
 * it (see `registryToolbox`); tests may provide their own.
 */
import type { ToolSchema } from '@hermes/protocol';
import type { ToolContext } from '@hermes/tools';

/** How one call ended. `cancelled` is produced by the loop, never by dispatch. */
export type ToolOutcome = 'ok' | 'error' | 'blocked' | 'cancelled';

/** One tool result. */
export interface ToolCallResult {
  readonly content: string;
  readonly status: ToolOutcome;
  readonly durationMs: number;
}

/** How a call may be scheduled. */
export interface ToolScheduling {
  /** Must run alone, between barriers (for example `clarify`). */
  readonly exclusive: boolean;
  /** May run concurrently with other parallel calls. */
  readonly parallelSafe: boolean;
  /** Paths a path-scoped call touches; overlapping calls never run together. */
  readonly paths: readonly string[];
}

/** The loop's view of its tools. */
export interface Toolbox {
  /** Schemas exposed to the model this turn. */
  schemas(): readonly ToolSchema[];
  /** Names a call may use. */
  names(): readonly string[];
  /** Runs one call. Never throws: failures come back as `error` results. */
  dispatch(name: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolCallResult>;
  /** Scheduling facts for one call. */
  scheduling(name: string, args: Record<string, unknown>): ToolScheduling;
}
