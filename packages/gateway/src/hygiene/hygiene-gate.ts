/**
 * Hygiene compression: before a turn, a stored session that has grown to `threshold` of the
 * model's context window (85%) or to `maxMessages` (5,000) is compressed, so the turn does not
 * start by overflowing. A failed compression loses nothing (the session is as it was), but the
 * check runs on every message, so without a pause each message would pay for another failing
 * summarizer call: failures start a cooldown that climbs ×1, ×3, ×9 … of `cooldownBaseMs`
 * (5 min) up to `cooldownMaxMs` (1 h). The failure streak and the cooldown live in the gateway
 * store, so a restart does not reset them; a success clears both.
 */
import type { Agent } from '@hermes/loop';
import type { GatewaySettings } from '../settings/gateway-settings.js';
import type { GatewayStore } from '../store/gateway-store.js';

/** What the gate needs of an agent (a real `Agent` has it). */
export type HygieneAgent = Pick<Agent, 'contextStatus' | 'compress' | 'running'>;

/** The outcome of {@link HygieneGate.check}. */
export interface HygieneCheck {
  /** A compression was attempted. */
  readonly ran: boolean;
  /** With `ran`: it succeeded (the agent reported `ok`). */
  readonly ok?: boolean;
  /** Why nothing ran: in a cooldown, under both thresholds, or a turn is running. */
  readonly skipped?: 'cooldown' | 'below' | 'busy';
  /** A line for the user, when there is something to say. */
  readonly notice?: string;
  /** With `ok: false`: why, for the log (may hold paths; not for the chat). */
  readonly error?: string;
}

type HygieneSettings = GatewaySettings['hygiene'];

/** The cooldown after the `failures`-th failure in a row: base × 3^(failures−1), capped. */
export function hygieneCooldownMs(failures: number, settings: HygieneSettings): number {
  const steps = Math.max(0, failures - 1);
  return Math.min(settings.cooldownBaseMs * 3 ** steps, settings.cooldownMaxMs);
}

function duration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return `${Math.max(1, Math.round(ms / 1_000))} seconds`;
  if (minutes % 60 !== 0) return minutes === 1 ? '1 minute' : `${minutes} minutes`;
  return minutes === 60 ? '1 hour' : `${minutes / 60} hours`;
}

/** Decides about and runs hygiene compression, one session key at a time. */
export class HygieneGate {
  readonly #store: GatewayStore;
  readonly #settings: HygieneSettings;
  readonly #clock: () => number;

  constructor(store: GatewayStore, settings: HygieneSettings, clock: () => number = Date.now) {
    this.#store = store;
    this.#settings = settings;
    this.#clock = clock;
  }

  /**
   * Compresses `agent`'s session when it is over a threshold and `key` is not cooling down.
   * `contextLength` is the model's window in tokens; without it the agent's context engine
   * supplies it, and without either only `maxMessages` applies. Between turns only: an agent
   * whose turn is running is skipped.
   */
  async check(key: string, agent: HygieneAgent, contextLength?: number): Promise<HygieneCheck> {
    if (agent.running) return { ran: false, skipped: 'busy' };
    const state = await this.#store.getHygiene(key);
    if (state !== undefined && this.#clock() < state.cooldownUntil) {
      return { ran: false, skipped: 'cooldown' };
    }
    if (!(await this.#over(agent, contextLength))) return { ran: false, skipped: 'below' };
    let report: Awaited<ReturnType<HygieneAgent['compress']>>;
    try {
      report = await agent.compress();
    } catch (error) {
      return this.#failed(key, state?.failures ?? 0, error);
    }
    if (!report.ok) return this.#failed(key, state?.failures ?? 0, report.error);
    await this.#store.setHygiene(key, undefined);
    return {
      ran: true,
      ok: true,
      ...(report.changed
        ? {
            notice: `Compressed this long conversation before answering (${report.messagesBefore} → ${report.messagesAfter} messages).`,
          }
        : {}),
    };
  }

  async #over(agent: HygieneAgent, contextLength: number | undefined): Promise<boolean> {
    const status = await agent.contextStatus();
    if (status.messages >= this.#settings.maxMessages) return true;
    const window = contextLength ?? status.contextLength;
    return window !== undefined && status.estimatedTokens >= this.#settings.threshold * window;
  }

  async #failed(key: string, before: number, error: unknown): Promise<HygieneCheck> {
    const failures = before + 1;
    const cooldown = hygieneCooldownMs(failures, this.#settings);
    await this.#store.setHygiene(key, { failures, cooldownUntil: this.#clock() + cooldown });
    const reason = error instanceof Error ? error.message : String(error ?? 'unknown error');
    return {
      ran: true,
      ok: false,
      notice: `This conversation is long and compressing it failed; answering with it as it is. Next try in ${duration(cooldown)}.`,
      error: reason,
    };
  }
}
