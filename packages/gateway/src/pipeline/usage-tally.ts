/**
 * Token usage and cost per stored session, summed over the turns this gateway process ran, for
 * `/usage`. Kept by session id outside the agents so an evicted and rebuilt agent loses nothing;
 * bounded so ten thousand short sessions do not grow the heap.
 */
import { addUsage, emptyUsage, type Usage } from '@hermes/protocol';
import { BoundedMap } from './bounded-map.js';

/** One session's totals. */
export interface SessionUsage {
  readonly turns: number;
  readonly apiCalls: number;
  readonly usage: Usage;
  readonly costUsd: number;
}

/** Sessions remembered at most (the least recently updated is forgotten first). */
export const USAGE_TALLY_MAX = 1_024;

/** Per-session totals. */
export class UsageTally {
  readonly #sessions: BoundedMap<string, SessionUsage>;

  constructor(max = USAGE_TALLY_MAX) {
    this.#sessions = new BoundedMap(max);
  }

  /** Adds one turn's numbers to `sessionId`. */
  add(sessionId: string, turn: { usage: Usage; costUsd: number; apiCalls: number }): void {
    const before = this.#sessions.get(sessionId);
    this.#sessions.set(sessionId, {
      turns: (before?.turns ?? 0) + 1,
      apiCalls: (before?.apiCalls ?? 0) + turn.apiCalls,
      usage: addUsage(before?.usage ?? emptyUsage(), turn.usage),
      costUsd: (before?.costUsd ?? 0) + turn.costUsd,
    });
  }

  get(sessionId: string): SessionUsage | undefined {
    return this.#sessions.get(sessionId);
  }
}
