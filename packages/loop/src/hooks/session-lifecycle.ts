/**
 * When an agent's `sessionStart` / `sessionEnd` hooks fire. A session starts when the agent
 * begins its first turn on it (new or resumed) and ends when the agent is done with it: a reset
 * (`/new`), `endSession()` (close), or moving on to another session (a compaction that continues
 * in a child session). Each started session ends exactly once; one never started never ends.
 */
import type { GuardedHooks } from './guard-hooks.js';

/** Tracks the session whose start was reported. */
export class SessionLifecycle {
  #current: string | undefined;

  constructor(
    readonly hooks: GuardedHooks | undefined,
    readonly platform: string,
  ) {}

  /** Before a turn on `sessionId`: reports its start unless it already started. */
  async enter(sessionId: string): Promise<void> {
    if (!this.hooks || sessionId === this.#current) return;
    await this.leave();
    this.#current = sessionId;
    await this.hooks.sessionStart({ sessionId, platform: this.platform });
  }

  /** The agent is done with its session: reports the end of the one that started, if any. */
  async leave(): Promise<void> {
    const sessionId = this.#current;
    this.#current = undefined;
    if (!this.hooks || sessionId === undefined) return;
    await this.hooks.sessionEnd({ sessionId, platform: this.platform });
  }
}
