/**
 * The gateway: one long-running object that connects every adapter, hands their messages to the
 * pipeline, and owns the process-level defences — the delivery ledger resent on start, cut-off
 * turns answered with a recovery note (unless restarts are storming), the agent cache swept in
 * the background, and a drain on stop that lets running turns finish before anything closes.
 */
import { HermesError } from '@hermes/protocol';
import { AgentCache } from './agents/agent-cache.js';
import type { AgentFactory } from './agents/agent-factory.js';
import { ChatApprovalHandler } from './approval/chat-approval-handler.js';
import { deliverText } from './delivery/deliver-text.js';
import { resendPending } from './delivery/resend-pending.js';
import { SYSTEM_TIMERS, type Timers } from './delivery/timers.js';
import {
  type AdapterHealth,
  type GatewayHealth,
  healthStatus,
  heapUsage,
  readConnectionState,
} from './health.js';
import { HygieneGate } from './hygiene/hygiene-gate.js';
import { InProcessLane } from './lane/in-process-lane.js';
import type { SessionLane } from './lane/session-lane.js';
import { errorFields, type GatewayLog, safeLog, silentLog } from './log.js';
import type { InboundContext, InboundMessage, SendTarget } from './messages.js';
import { PairingStore } from './pairing/pairing-store.js';
import { MessagePipeline } from './pipeline/message-pipeline.js';
import { recoverCutOffTurns } from './pipeline/recovery.js';
import { SessionSlots } from './pipeline/session-slots.js';
import type { PlatformAdapter } from './platform-adapter.js';
import { RestartGuard } from './restart/restart-guard.js';
import { SessionDirectory } from './session/session-directory.js';
import type { GatewaySettings } from './settings/gateway-settings.js';
import type { PlatformSettings } from './settings/platform-settings.js';
import type { GatewayStore, InFlightTurn } from './store/gateway-store.js';

/** How often idle agents are looked for at most; the sweep itself is cheap. */
const MAX_SWEEP_INTERVAL_MS = 60_000;

/**
 * How long interrupted turns get to persist at shutdown. A tool that ignores its abort signal
 * must not keep the process from exiting; such a turn stays listed as cut off.
 */
export const INTERRUPT_GRACE_MS = 10_000;

/** What a {@link Gateway} is built from. The app builds each part from config. */
export interface GatewayOptions {
  readonly settings: GatewaySettings;
  /** `platforms:` entries (allow-all and allowlists per platform). */
  readonly platforms: readonly PlatformSettings[];
  /** One adapter per platform; their `platform` names must differ. */
  readonly adapters: readonly PlatformAdapter[];
  readonly agentFactory: AgentFactory;
  readonly store: GatewayStore;
  /** The profile's home: pairing files, the restart-loop guard. */
  readonly hermesHome: string;
  /** Default: an {@link InProcessLane} bounded by `settings.maxConcurrentTurns`. */
  readonly lane?: SessionLane;
  /**
   * Default: pairing files under `hermesHome` with `settings.pairing`'s code lifetime. A gateway
   * sharing a database with others passes one over the database's pairing data.
   */
  readonly pairing?: PairingStore;
  /**
   * Other gateway processes serve the same sessions (one shared database): every turn gets a
   * freshly loaded agent instead of a cached one. Default false.
   */
  readonly sharedSessions?: boolean;
  readonly log?: GatewayLog;
  /** Milliseconds since the epoch; default `Date.now`. */
  readonly clock?: () => number;
  /** Timers for approval timeouts, delivery pacing and the drain deadline; default Node's. */
  readonly timers?: Timers;
  /** How often the agent cache is swept; default a quarter of the idle TTL, at most a minute. */
  readonly sweepIntervalMs?: number;
}

/** The long-running gateway. */
export class Gateway {
  readonly #settings: GatewaySettings;
  readonly #adapters: ReadonlyMap<string, PlatformAdapter>;
  readonly #adapterHealth = new Map<string, AdapterHealth>();
  readonly #store: GatewayStore;
  readonly #hermesHome: string;
  readonly #cache: AgentCache;
  readonly #slots: SessionSlots;
  readonly #pipeline: MessagePipeline;
  readonly #log: GatewayLog;
  readonly #clock: () => number;
  readonly #timers: Timers;
  readonly #sweepIntervalMs: number;
  #startedAt: number;
  #sweep: ReturnType<typeof setInterval> | undefined;
  #starting: Promise<void> | undefined;
  #stopping: Promise<void> | undefined;

  constructor(options: GatewayOptions) {
    const { settings, store } = options;
    this.#settings = settings;
    this.#store = store;
    this.#hermesHome = options.hermesHome;
    this.#log = options.log ?? silentLog;
    this.#clock = options.clock ?? Date.now;
    this.#timers = options.timers ?? SYSTEM_TIMERS;
    this.#startedAt = this.#clock();
    this.#adapters = adapterMap(options.adapters);
    for (const platform of this.#adapters.keys()) {
      this.#adapterHealth.set(platform, { platform, connected: false });
    }
    this.#sweepIntervalMs =
      options.sweepIntervalMs ??
      Math.max(1_000, Math.min(MAX_SWEEP_INTERVAL_MS, settings.agentCache.idleTtlMs / 4));
    const clock = this.#clock;
    const timers = this.#timers;
    this.#slots = new SessionSlots(
      () => new ChatApprovalHandler({ timeoutMs: settings.approvalTimeoutMs, clock, timers }),
    );
    this.#cache = new AgentCache({
      factory: options.agentFactory,
      max: settings.agentCache.max,
      idleTtlMs: settings.agentCache.idleTtlMs,
      heapPressureRatio: settings.agentCache.heapPressureRatio,
      clock,
      isBusy: (key) => this.#slots.peek(key)?.pinned ?? false,
      onEvict: (key, reason, error) => {
        this.#slots.dropIfIdle(key);
        if (error !== undefined) {
          safeLog(this.#log, 'warn', 'gateway: an evicted agent failed to close', {
            key,
            reason,
            ...errorFields(error),
          });
        }
      },
    });
    this.#pipeline = new MessagePipeline({
      settings,
      platforms: new Map(options.platforms.map((entry) => [entry.name, entry])),
      adapters: this.#adapters,
      store,
      directory: new SessionDirectory(store, settings, clock),
      cache: this.#cache,
      lane: options.lane ?? new InProcessLane({ maxConcurrent: settings.maxConcurrentTurns }),
      hygiene: new HygieneGate(store, settings.hygiene, clock),
      pairing:
        options.pairing ??
        new PairingStore(options.hermesHome, {
          codeTtlMs: settings.pairing.codeTtlMs,
          clock,
          onCorrupt: (path) =>
            safeLog(this.#log, 'warn', 'gateway: unreadable pairing file', { path }),
        }),
      freshAgents: options.sharedSessions === true,
      slots: this.#slots,
      log: this.#log,
      clock,
      timers,
    });
  }

  /**
   * Starts serving: takes the turns the previous process left cut off, connects every adapter
   * (one that fails is logged and shown in {@link health}; the rest run), resends the delivery
   * ledger, posts the recovery notes, and starts the agent-cache sweep. Adapters connect before
   * anything is sent because most platforms cannot send before they connect. Idempotent.
   */
  start(): Promise<void> {
    if (this.#stopping && !this.#starting) {
      return Promise.reject(
        new HermesError('gateway.stopped', 'This gateway was stopped; build a new one to start.'),
      );
    }
    this.#starting ??= this.#start();
    return this.#starting;
  }

  async #start(): Promise<void> {
    this.#startedAt = this.#clock();
    // Before any adapter connects: no turn of this process can be in the list yet.
    const cutOff = await this.#takeCutOffTurns();
    await Promise.all([...this.#adapters.values()].map((adapter) => this.#connect(adapter)));
    const connected = this.#connectedAdapters();
    const resent = await resendPending(this.#store, connected, this.#log, { clock: this.#clock });
    safeLog(this.#log, 'info', 'gateway: started', {
      adapters: connected.size,
      resent: resent.sent,
      resendFailed: resent.failed,
      cutOffTurns: cutOff.length,
    });
    await recoverCutOffTurns(cutOff, {
      adapters: connected,
      store: this.#store,
      guard: new RestartGuard(this.#hermesHome, this.#clock),
      log: this.#log,
      clock: this.#clock,
      timers: this.#timers,
    });
    if (this.#stopping) return;
    this.#sweep = setInterval(() => this.#sweepCache(), this.#sweepIntervalMs);
    this.#sweep.unref();
  }

  /**
   * Stops: new messages are told the gateway is restarting, running turns get up to
   * `drainTimeoutMs` (default `settings.drainTimeoutMs`) to finish and deliver, the rest are
   * interrupted and awaited (so they persist, and stay listed as cut off for the next start);
   * then adapters disconnect, agents close and the store closes. Idempotent.
   */
  stop(options: { readonly drainTimeoutMs?: number } = {}): Promise<void> {
    if (this.#stopping === undefined) {
      // At once, not after an await: a message arriving in the same tick is already refused.
      this.#pipeline.stopAccepting();
      this.#stopping = this.#stop(options.drainTimeoutMs ?? this.#settings.drainTimeoutMs);
    }
    return this.#stopping;
  }

  async #stop(drainTimeoutMs: number): Promise<void> {
    if (this.#sweep) clearInterval(this.#sweep);
    await this.#starting?.catch(() => undefined);
    if (!(await this.#drain(drainTimeoutMs))) {
      safeLog(this.#log, 'warn', 'gateway: drain timed out; interrupting running turns', {
        runningTurns: this.#slots.runningTurns,
      });
      this.#pipeline.interruptAll();
      if (!(await this.#drain(INTERRUPT_GRACE_MS))) {
        safeLog(this.#log, 'error', 'gateway: interrupted turns did not end; closing anyway', {
          runningTurns: this.#slots.runningTurns,
        });
      }
    }
    await Promise.all(
      [...this.#adapters.values()].map(async (adapter) => {
        try {
          await adapter.disconnect();
        } catch (error) {
          safeLog(this.#log, 'warn', 'gateway: adapter disconnect failed', {
            platform: adapter.platform,
            ...errorFields(error),
          });
        }
        this.#adapterHealth.set(adapter.platform, { platform: adapter.platform, connected: false });
      }),
    );
    await this.#cache.closeAll();
    await this.#store.close();
    safeLog(this.#log, 'info', 'gateway: stopped');
  }

  /** The InboundHandler every adapter is connected with. See `MessagePipeline.handle`. */
  readonly handle = (message: InboundMessage, context?: InboundContext): Promise<void> =>
    this.#pipeline.handle(message, context);

  /**
   * Sends `text` to a chat on `platform` through the ledger (webhook results, cross-platform
   * messages).
   *
   * @throws HermesError `gateway.no_adapter` when no adapter serves `platform`, and what
   *   `deliverText` throws when sending fails.
   */
  async deliver(platform: string, target: SendTarget, text: string): Promise<void> {
    const adapter = this.#adapters.get(platform);
    if (!adapter) {
      throw new HermesError('gateway.no_adapter', `No adapter serves the platform "${platform}".`);
    }
    await deliverText(adapter, target, text, {
      store: this.#store,
      sessionKey: `agent:${this.#settings.profile}:${platform}:deliver:${target.chatId}`,
      platform,
      log: this.#log,
      clock: this.#clock,
      timers: this.#timers,
    });
  }

  /** Resolves when no session has a turn running or waiting (tests, benchmarks). */
  settled(): Promise<void> {
    return this.#pipeline.settled();
  }

  /** The gateway's state for `/health`. */
  health(): GatewayHealth {
    const adapters = [...this.#adapterHealth.values()].map((entry) => this.#liveHealth(entry));
    return {
      status: healthStatus(this.#stopping !== undefined, adapters),
      adapters,
      runningTurns: this.#slots.runningTurns,
      queuedMessages: this.#slots.queuedMessages,
      cachedAgents: this.#cache.size,
      heap: heapUsage(),
      uptimeSeconds: Math.max(0, Math.floor((this.#clock() - this.#startedAt) / 1_000)),
    };
  }

  /** A connected adapter's entry, with what it reports about its live link. */
  #liveHealth(entry: AdapterHealth): AdapterHealth {
    const adapter = this.#adapters.get(entry.platform);
    if (!entry.connected || adapter === undefined) return entry;
    const state = readConnectionState(adapter, this.#log);
    if (state === undefined) return entry;
    return {
      ...entry,
      connected: state.up,
      reconnects: state.reconnects,
      ...(state.lastReconnectAt ? { lastReconnectAt: state.lastReconnectAt } : {}),
      ...(state.lastReconnectReason ? { lastReconnectReason: state.lastReconnectReason } : {}),
    };
  }

  async #takeCutOffTurns(): Promise<InFlightTurn[]> {
    try {
      return await this.#store.takeCutOffTurns();
    } catch (error) {
      safeLog(this.#log, 'error', 'gateway: could not read cut-off turns', errorFields(error));
      return [];
    }
  }

  async #connect(adapter: PlatformAdapter): Promise<void> {
    const { platform } = adapter;
    try {
      await adapter.connect(this.handle);
      this.#adapterHealth.set(platform, { platform, connected: true });
    } catch (error) {
      const { error: message } = errorFields(error);
      this.#adapterHealth.set(platform, { platform, connected: false, error: message });
      safeLog(this.#log, 'error', 'gateway: adapter failed to connect', {
        platform,
        ...errorFields(error),
      });
    }
  }

  #connectedAdapters(): ReadonlyMap<string, PlatformAdapter> {
    const connected = new Map<string, PlatformAdapter>();
    for (const [platform, adapter] of this.#adapters) {
      if (this.#adapterHealth.get(platform)?.connected) connected.set(platform, adapter);
    }
    return connected;
  }

  /** Waits for the pipeline to settle, up to `timeoutMs`; resolves whether it did. */
  async #drain(timeoutMs: number): Promise<boolean> {
    let handle: unknown;
    const deadline = new Promise<false>((resolve) => {
      handle = this.#timers.setTimeout(() => resolve(false), timeoutMs);
    });
    const settled = this.#pipeline.settled().then(() => true as const);
    try {
      return await Promise.race([settled, deadline]);
    } finally {
      this.#timers.clearTimeout(handle);
    }
  }

  #sweepCache(): void {
    this.#cache.sweep().then(
      (evicted) => {
        if (evicted > 0) safeLog(this.#log, 'info', 'gateway: agent cache swept', { evicted });
      },
      (error) =>
        safeLog(this.#log, 'warn', 'gateway: agent cache sweep failed', errorFields(error)),
    );
  }
}

function adapterMap(adapters: readonly PlatformAdapter[]): ReadonlyMap<string, PlatformAdapter> {
  const map = new Map<string, PlatformAdapter>();
  for (const adapter of adapters) {
    if (map.has(adapter.platform)) {
      throw new HermesError(
        'gateway.duplicate_platform',
        `Two adapters serve the platform "${adapter.platform}"; each platform needs exactly one.`,
      );
    }
    map.set(adapter.platform, adapter);
  }
  return map;
}
