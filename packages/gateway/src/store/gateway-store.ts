/**
 * What the gateway keeps across restarts, behind an abstract class: which stored session each
 * chat is on, hygiene-compression cooldowns, the delivery ledger, and the turns that were running.
 * The default implementation is SQLite in `HERMES_HOME/state.db`; PostgreSQL can replace it when
 * several gateway processes share one database. Every method is async for that reason.
 */
import type { SendTarget } from '../messages.js';

/** The stored session a session key is on. */
export interface SessionRoute {
  readonly key: string;
  readonly sessionId: string;
  readonly platform: string;
  /** When this session was started for the key (ms since the epoch). */
  readonly createdAt: number;
  /** The last message on the key (ms), for idle and daily resets. */
  readonly lastActiveAt: number;
}

/** Hygiene-compression failures of one session key. */
export interface HygieneState {
  /** Failures in a row; a success clears the state. */
  readonly failures: number;
  /** No hygiene attempt before this time (ms). */
  readonly cooldownUntil: number;
}

/** A reply that the agent produced and that is not yet known to be sent. */
export interface PendingDelivery {
  readonly id: string;
  readonly sessionKey: string;
  readonly platform: string;
  readonly target: SendTarget;
  /** The whole reply as it is to be sent (redacted, rendered). */
  readonly text: string;
  /** Parts of the split reply already sent; a resend starts after them. */
  readonly sentParts: number;
  readonly createdAt: number;
  readonly attempts: number;
}

/** A turn that started; one still listed at start-up was cut off by the previous process. */
export interface InFlightTurn {
  readonly sessionKey: string;
  readonly sessionId: string;
  readonly platform: string;
  readonly target: SendTarget;
  readonly startedAt: number;
}

/** The gateway's durable state. Implementations must be safe to call concurrently. */
export abstract class GatewayStore {
  abstract getRoute(key: string): Promise<SessionRoute | undefined>;
  /** Creates or replaces the route for `route.key`. */
  abstract setRoute(route: SessionRoute): Promise<void>;
  /** Records activity on `key` at `at` (no-op when the key has no route). */
  abstract touchRoute(key: string, at: number): Promise<void>;
  abstract deleteRoute(key: string): Promise<void>;

  abstract getHygiene(key: string): Promise<HygieneState | undefined>;
  /** Replaces the state; `undefined` clears it (after a success). */
  abstract setHygiene(key: string, state: HygieneState | undefined): Promise<void>;

  /** Records a reply before its first part is sent; returns its id. */
  abstract addDelivery(
    delivery: Omit<PendingDelivery, 'id' | 'sentParts' | 'attempts'>,
  ): Promise<string>;
  /** Records that the first `sentParts` parts are sent. */
  abstract markDeliveryProgress(id: string, sentParts: number): Promise<void>;
  /** The whole reply is sent: the entry leaves the ledger. */
  abstract completeDelivery(id: string): Promise<void>;
  /** A send failed; `dead` (the chat is gone) drops the entry for good. */
  abstract failDelivery(id: string, error: string, dead: boolean): Promise<void>;
  /** Replies not yet fully sent, oldest first (optionally for one platform). */
  abstract pendingDeliveries(platform?: string): Promise<PendingDelivery[]>;

  abstract beginTurn(turn: InFlightTurn): Promise<void>;
  abstract endTurn(sessionKey: string): Promise<void>;
  /** Turns begun and never ended, i.e. cut off by a crash or a kill; clears the list. */
  abstract takeCutOffTurns(): Promise<InFlightTurn[]>;

  abstract close(): Promise<void>;
}
