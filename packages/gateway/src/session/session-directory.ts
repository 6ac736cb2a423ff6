/**
 * Which stored session each session key is on, with the reset policy applied. The store keeps
 * the routes (so a restart continues every chat); this class decides when a route ends.
 */
import type { GatewaySettings } from '../settings/gateway-settings.js';
import type { GatewayStore } from '../store/gateway-store.js';
import { type ResetReason, resetReason } from './reset-policy.js';

/** What {@link SessionDirectory.resolve} found for a key. */
export interface ResolvedSession {
  /** The stored session to continue; absent: start a new one (then `bind` it). */
  readonly sessionId?: string;
  /** Set when the policy just ended the key's session; tell the user (`resetNotice`). */
  readonly resetReason?: ResetReason;
}

/** Routes session keys to stored sessions. Safe to share across the whole gateway. */
export class SessionDirectory {
  readonly #store: GatewayStore;
  readonly #settings: GatewaySettings;
  readonly #clock: () => number;

  constructor(store: GatewayStore, settings: GatewaySettings, clock: () => number = Date.now) {
    this.#store = store;
    this.#settings = settings;
    this.#clock = clock;
  }

  /**
   * The session `key` is on. When the reset policy says the session is over, the route is
   * dropped and the reason returned with no session id: the next turn starts a new session.
   * Reading does not count as activity; call {@link touch} when a message is handled.
   */
  async resolve(key: string, _platform: string): Promise<ResolvedSession> {
    const route = await this.#store.getRoute(key);
    if (route === undefined) return {};
    const reason = resetReason(route, this.#clock(), this.#settings.reset);
    if (reason === undefined) return { sessionId: route.sessionId };
    await this.#store.deleteRoute(key);
    return { resetReason: reason };
  }

  /**
   * Puts `key` on `sessionId` (after the first turn of a new session created it), as active
   * now. Binding the session a key is already on keeps its start time.
   */
  async bind(key: string, platform: string, sessionId: string): Promise<void> {
    const now = this.#clock();
    const existing = await this.#store.getRoute(key);
    const createdAt = existing?.sessionId === sessionId ? existing.createdAt : now;
    await this.#store.setRoute({ key, sessionId, platform, createdAt, lastActiveAt: now });
  }

  /** Records a message on `key` now (idle and daily resets count from the last one). */
  async touch(key: string): Promise<void> {
    await this.#store.touchRoute(key, this.#clock());
  }

  /** Ends `key`'s session (`/new`): the next message starts a new one. */
  async reset(key: string): Promise<void> {
    await this.#store.deleteRoute(key);
  }
}
