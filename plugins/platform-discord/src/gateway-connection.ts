/**
 * The Discord gateway connection: `@discordjs/ws` does HELLO/IDENTIFY/heartbeats, resumes after a
 * drop and gives up on a zombie connection (a beat without ACK). On top of it a watchdog restarts
 * the whole connection when nothing at all (no ACK, no event) came for `watchdogMs`: the case the
 * SDK waits on for a minute or more (a socket that never says HELLO, a resume that hangs).
 */
import type { REST } from '@discordjs/rest';
import { WebSocketManager, WebSocketShardEvents } from '@discordjs/ws';
import type { PluginLogger } from '@hermes/plugin-sdk';

/**
 * GUILDS | GUILD_MESSAGES | DIRECT_MESSAGES | MESSAGE_CONTENT: the events a chat bot needs.
 * Numbers, not discord-api-types' enum, to keep the dependency list to the SDK itself.
 */
export const DISCORD_INTENTS = 1 | (1 << 9) | (1 << 12) | (1 << 15);

/** One gateway event, as the SDK hands it over. */
export interface DispatchEvent {
  readonly t: string;
  readonly d: unknown;
}

/** What the connection needs. */
export interface GatewayConnectionOptions {
  readonly token: string;
  readonly rest: REST;
  readonly watchdogMs: number;
  readonly log: PluginLogger;
  readonly onDispatch: (event: DispatchEvent) => void;
  /** The link is up: READY after an IDENTIFY, or RESUMED. */
  readonly onUp?: () => void;
  /** The link is being re-established; `reason` is secret-free ("socket closed (code 1006)"). */
  readonly onReconnecting?: (reason: string) => void;
}

/** `41250` → `"41.3 s"`, `100` → `"100 ms"`: short, human, no false precision. */
export function formatDuration(ms: number): string {
  return ms >= 1_000 ? `${Number((ms / 1_000).toFixed(1))} s` : `${Math.round(ms)} ms`;
}

/** The SDK's debug line when it starts beating, and when it destroys a shard (with why). */
const BEAT_EVERY = /starting to beat every (\d+)ms/;
const DESTROY_REASON = /Destroying shard\s+Reason: ([^\n]+)/;
/** The close code the SDK itself uses when it closes a socket in order to resume. */
const RESUMING_CLOSE_CODE = 4200;

/** A self-healing gateway connection; `restarts` counts the watchdog's interventions. */
export class GatewayConnection {
  restarts = 0;
  #manager: WebSocketManager | undefined;
  #timer: NodeJS.Timeout | undefined;
  #lastAlive = 0;
  #restarting = false;
  #stopped = true;
  /** Discord's heartbeat interval for the live connection (from the SDK's debug line). */
  #beatMs = 0;
  /** Why the SDK last destroyed its shard, as it worded it ("Zombie connection"). */
  #destroyReason: string | undefined;

  constructor(private readonly options: GatewayConnectionOptions) {}

  /** Connects and resolves once READY; starts the watchdog. */
  async start(): Promise<void> {
    this.#stopped = false;
    await this.#open();
    const { watchdogMs } = this.options;
    if (watchdogMs > 0) {
      this.#timer = setInterval(() => this.#check(), Math.max(10, Math.floor(watchdogMs / 4)));
      this.#timer.unref();
    }
  }

  /** Closes the connection and stops the watchdog. Idempotent. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#close();
  }

  async #open(): Promise<void> {
    const manager = new WebSocketManager({
      token: this.options.token,
      intents: DISCORD_INTENTS,
      rest: this.options.rest,
    });
    const alive = () => {
      if (this.#manager === manager) this.#lastAlive = Date.now();
    };
    manager.on(WebSocketShardEvents.HeartbeatComplete, alive);
    manager.on(WebSocketShardEvents.Ready, () => {
      if (this.#manager === manager) this.options.onUp?.();
    });
    manager.on(WebSocketShardEvents.Resumed, () => {
      alive();
      this.options.log.info('discord gateway resumed');
      if (this.#manager === manager) this.options.onUp?.();
    });
    manager.on(WebSocketShardEvents.Closed, (code) => {
      // A retired manager's listeners are gone; this is the live link dropping, and the SDK is
      // about to resume or re-identify on its own.
      if (this.#manager !== manager || this.#stopped) return;
      const reason = this.#closeReason(code);
      this.options.log.warn('discord gateway link lost; the SDK reconnects', { reason });
      this.options.onReconnecting?.(reason);
    });
    manager.on(WebSocketShardEvents.Dispatch, (payload) => {
      if (this.#manager !== manager) return;
      alive();
      this.options.onDispatch({ t: payload.t, d: payload.d });
    });
    manager.on(WebSocketShardEvents.Debug, (message) => {
      this.#beatMs = Number(BEAT_EVERY.exec(message)?.[1] ?? this.#beatMs);
      this.#destroyReason = DESTROY_REASON.exec(message)?.[1]?.trim() ?? this.#destroyReason;
      this.options.log.debug('discord gateway', { message });
    });
    manager.on(WebSocketShardEvents.Error, (error) => {
      this.options.log.warn('discord gateway error', { error: errorName(error) });
    });
    this.#manager = manager;
    this.#lastAlive = Date.now();
    await manager.connect();
    this.#lastAlive = Date.now();
  }

  async #close(): Promise<void> {
    const manager = this.#manager;
    this.#manager = undefined;
    if (!manager) return;
    manager.removeAllListeners();
    const destroy = () =>
      Promise.resolve(manager.destroy({ reason: 'closing', code: 1000 })).catch(() => undefined);
    // A shard caught in the SDK's own 500 ms pause before a resume ignores destroy() and comes
    // back later; a retired manager that shows any sign of life is destroyed again, so two
    // connections never fight over one session.
    for (const event of [WebSocketShardEvents.Hello, WebSocketShardEvents.Ready]) {
      manager.on(event, () => void destroy());
    }
    manager.on(WebSocketShardEvents.Dispatch, () => void destroy());
    manager.on(WebSocketShardEvents.Error, () => undefined);
    // A shard stuck before HELLO can keep destroy() waiting; never let that hang a restart.
    await Promise.race([destroy(), new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
  }

  /** A secret-free reason for a close: the SDK's own words mapped to plain ones, or the code. */
  #closeReason(code: number): string {
    const destroyed = this.#destroyReason;
    this.#destroyReason = undefined;
    if (code === RESUMING_CLOSE_CODE && destroyed === 'Zombie connection') {
      return `no heartbeat ACK in ${formatDuration(this.#beatMs)}`;
    }
    if (code === RESUMING_CLOSE_CODE && destroyed) return `resuming: ${destroyed}`;
    return `socket closed (code ${code})`;
  }

  #check(): void {
    if (this.#stopped || this.#restarting) return;
    if (Date.now() - this.#lastAlive < this.options.watchdogMs) return;
    void this.#restart();
  }

  async #restart(): Promise<void> {
    this.#restarting = true;
    this.restarts += 1;
    const silentMs = Date.now() - this.#lastAlive;
    this.options.onReconnecting?.(
      `watchdog: no heartbeat ACK or event in ${formatDuration(silentMs)}`,
    );
    this.options.log.warn('discord gateway silent; reconnecting', {
      silentMs,
      restarts: this.restarts,
    });
    try {
      await this.#close();
      // A connect that hangs must not block the next check: it restarts again after watchdogMs.
      const giveUp = new Promise((resolve) => setTimeout(resolve, this.options.watchdogMs).unref());
      if (!this.#stopped) await Promise.race([this.#open(), giveUp]);
    } catch (error) {
      // The next check tries again: lastAlive was reset when the attempt began.
      this.options.log.warn('discord gateway reconnect failed', { error: errorName(error) });
    } finally {
      this.#restarting = false;
    }
  }
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : 'unknown';
}
