/**
 * The SessionLane across processes. (Skeleton: the implementation lands with issue 24's gateway work.)
 */
import type { PostgresDatabase } from '@hermes/state/postgres';
import type { LaneLease } from './session-lane.js';
import { SessionLane } from './session-lane.js';

/** Options of {@link PostgresSessionLane}. */
export interface PostgresSessionLaneOptions {
  /** Turns running at once in this process (`gateway.max_concurrent_turns`). */
  readonly maxConcurrent: number;
  /** How often a waiter retries a lock another process holds. Default 100 ms. */
  readonly pollMs?: number;
}

/** One running turn per session key across every process on the database (advisory locks). */
export class PostgresSessionLane extends SessionLane {
  constructor(_database: PostgresDatabase, _options: PostgresSessionLaneOptions) {
    super();
  }
  acquire(_key: string, _signal?: AbortSignal): Promise<LaneLease> {
    throw new Error('PostgresSessionLane: not yet');
  }
  isHeld(_key: string): boolean {
    return false;
  }
  held(): readonly string[] {
    return [];
  }
  /** Releases every lock and ends the lock connections. Idempotent. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}
