/** An in-memory GatewayStore double for delivery tests: the abstract class, kept in maps. */
import {
  GatewayStore,
  type HygieneState,
  type InFlightTurn,
  type PendingDelivery,
  type SessionRoute,
} from '../../src/store/gateway-store.js';

/** What happened to a delivery that left the ledger. */
export interface ClosedDelivery {
  readonly delivery: PendingDelivery;
  readonly how: 'completed' | 'dead';
  readonly error?: string;
}

/** Every method works; `deliveries` and `closed` let tests look at the ledger synchronously. */
export class MemoryGatewayStore extends GatewayStore {
  readonly deliveries = new Map<string, PendingDelivery & { lastError?: string }>();
  readonly closed: ClosedDelivery[] = [];
  readonly #routes = new Map<string, SessionRoute>();
  readonly #hygiene = new Map<string, HygieneState>();
  readonly #turns = new Map<string, InFlightTurn>();
  #nextId = 1;

  async getRoute(key: string): Promise<SessionRoute | undefined> {
    return this.#routes.get(key);
  }
  async setRoute(route: SessionRoute): Promise<void> {
    this.#routes.set(route.key, route);
  }
  async touchRoute(key: string, at: number): Promise<void> {
    const route = this.#routes.get(key);
    if (route) this.#routes.set(key, { ...route, lastActiveAt: at });
  }
  async deleteRoute(key: string): Promise<void> {
    this.#routes.delete(key);
  }
  async getHygiene(key: string): Promise<HygieneState | undefined> {
    return this.#hygiene.get(key);
  }
  async setHygiene(key: string, state: HygieneState | undefined): Promise<void> {
    if (state) this.#hygiene.set(key, state);
    else this.#hygiene.delete(key);
  }

  async addDelivery(
    delivery: Omit<PendingDelivery, 'id' | 'sentParts' | 'attempts'>,
  ): Promise<string> {
    const id = `d${this.#nextId++}`;
    this.deliveries.set(id, { ...delivery, id, sentParts: 0, attempts: 0 });
    return id;
  }
  async markDeliveryProgress(id: string, sentParts: number): Promise<void> {
    const entry = this.deliveries.get(id);
    if (entry) this.deliveries.set(id, { ...entry, sentParts });
  }
  async completeDelivery(id: string): Promise<void> {
    const entry = this.deliveries.get(id);
    if (!entry) return;
    this.deliveries.delete(id);
    this.closed.push({ delivery: entry, how: 'completed' });
  }
  async failDelivery(id: string, error: string, dead: boolean): Promise<void> {
    const entry = this.deliveries.get(id);
    if (!entry) return;
    if (dead) {
      this.deliveries.delete(id);
      this.closed.push({ delivery: entry, how: 'dead', error });
      return;
    }
    this.deliveries.set(id, { ...entry, attempts: entry.attempts + 1, lastError: error });
  }
  async pendingDeliveries(platform?: string): Promise<PendingDelivery[]> {
    return [...this.deliveries.values()]
      .filter((d) => platform === undefined || d.platform === platform)
      .sort((a, b) => a.createdAt - b.createdAt);
  }

  async beginTurn(turn: InFlightTurn): Promise<void> {
    this.#turns.set(turn.sessionKey, turn);
  }
  async endTurn(sessionKey: string): Promise<void> {
    this.#turns.delete(sessionKey);
  }
  async takeCutOffTurns(): Promise<InFlightTurn[]> {
    const turns = [...this.#turns.values()];
    this.#turns.clear();
    return turns;
  }
  async close(): Promise<void> {}
}
