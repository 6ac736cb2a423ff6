/**
 * The message pipeline: every inbound message, from any adapter, in the issue's order —
 * authorize → slash command → busy policy → session (key, reset) → hygiene → the turn on the
 * session's lane → delivery. `handle` does the first three and returns: the rest runs on the
 * session's worker, so a long turn never holds up the adapter (nor a `/stop` sent behind it).
 */
import type { AgentCache } from '../agents/agent-cache.js';
import type { AgentHandle } from '../agents/agent-factory.js';
import type { Timers } from '../delivery/timers.js';
import type { HygieneGate } from '../hygiene/hygiene-gate.js';
import type { SessionLane } from '../lane/session-lane.js';
import { errorFields, type GatewayLog, safeLog } from '../log.js';
import { type InboundContext, type InboundMessage, InboundMessageSchema } from '../messages.js';
import type { PairingStore } from '../pairing/pairing-store.js';
import type { PlatformAdapter } from '../platform-adapter.js';
import type { SessionDirectory } from '../session/session-directory.js';
import { buildSessionKey } from '../session/session-key.js';
import type { GatewaySettings } from '../settings/gateway-settings.js';
import type { PlatformSettings } from '../settings/platform-settings.js';
import type { GatewayStore } from '../store/gateway-store.js';
import { authorize, pairingReply } from './authorize.js';
import { BoundedMap } from './bounded-map.js';
import { applyBusyPolicy } from './busy-policy.js';
import type { CommandHost } from './commands/command-host.js';
import { runSlashCommand } from './commands/command-table.js';
import { NOT_AUTHORIZED, RESTARTING, TURN_CRASHED } from './notices.js';
import { chatChannel, type ReplyChannel, sinkChannel } from './reply-channel.js';
import type { SessionSlots } from './session-slots.js';
import { SessionWorkers, turnWork } from './session-worker.js';
import { UsageTally } from './usage-tally.js';

/** `/model` choices remembered at most (by session key). */
const MODEL_CHOICES_MAX = 4_096;

/** Everything the pipeline works with; the {@link Gateway} builds it. */
export interface PipelineDeps {
  readonly settings: GatewaySettings;
  readonly platforms: ReadonlyMap<string, PlatformSettings>;
  readonly adapters: ReadonlyMap<string, PlatformAdapter>;
  readonly store: GatewayStore;
  readonly directory: SessionDirectory;
  readonly cache: AgentCache;
  readonly lane: SessionLane;
  readonly hygiene: HygieneGate;
  readonly pairing: PairingStore;
  readonly slots: SessionSlots;
  readonly log: GatewayLog;
  readonly clock: () => number;
  readonly timers: Timers;
  /**
   * Build a fresh agent for every turn instead of reusing the cached one: set when other
   * processes write the same sessions (a shared database), so a turn never runs on a
   * conversation another process has moved past.
   */
  readonly freshAgents?: boolean;
}

/** Runs inbound messages through the seven steps. */
export class MessagePipeline implements CommandHost {
  readonly settings: GatewaySettings;
  readonly store: GatewayStore;
  readonly directory: SessionDirectory;
  readonly cache: AgentCache;
  readonly slots: SessionSlots;
  readonly usage = new UsageTally();
  readonly models = new BoundedMap<string, string>(MODEL_CHOICES_MAX);
  readonly #deps: PipelineDeps;
  readonly #workers: SessionWorkers;
  #accepting = true;

  constructor(deps: PipelineDeps) {
    this.#deps = deps;
    this.settings = deps.settings;
    this.store = deps.store;
    this.directory = deps.directory;
    this.cache = deps.cache;
    this.slots = deps.slots;
    this.#workers = new SessionWorkers({
      ...deps,
      usage: this.usage,
      models: this.models,
      accepting: () => this.#accepting,
    });
  }

  /**
   * Takes one inbound message. Resolves once the message is accepted — answered, refused,
   * steered into a running turn, or queued for its session's worker — not when its turn ends;
   * the turn's outcome goes to the chat or to `context.sink`.
   */
  async handle(raw: InboundMessage, context?: InboundContext): Promise<void> {
    const message = this.#validate(raw, context);
    const adapter = message && this.#adapterFor(message, context);
    if (!message || !adapter) return;
    const key = buildSessionKey(this.settings.profile, message, this.settings);
    const reply = this.#replyFor(adapter, message, key, context);
    try {
      if (!this.#accepting) return await reply.refuse('gateway.restarting', RESTARTING);
      // 1. Authorize (pairing codes for strangers in DMs).
      if (!(await this.#authorized(message, adapter, reply))) return;
      // 2. Slash commands, and a plain yes/no to a pending approval.
      const answered = await runSlashCommand({ message, key, reply, host: this });
      if (answered) return await reply.answer(answered.text, await this.#facts(key));
      // Stopping may have begun while this message was being authorized.
      if (!this.#accepting) return await reply.refuse('gateway.restarting', RESTARTING);
      // 3. Busy policy, when the session is already working.
      const slot = this.slots.ensure(key, message.platform);
      const work = turnWork(message, context, reply);
      if (slot.busy) {
        const outcome = await applyBusyPolicy(
          slot,
          work,
          this.settings.busyPolicy,
          this.#workers.enqueue,
        );
        safeLog(this.#deps.log, 'info', 'gateway: busy session', { key, outcome });
        return;
      }
      // 4–7. Session, hygiene, the turn and its delivery run on the session's worker.
      this.#workers.enqueue(slot, work, false);
    } catch (error) {
      safeLog(this.#deps.log, 'error', 'gateway: a message failed', { key, ...errorFields(error) });
      await reply.refuse('gateway.internal', TURN_CRASHED);
    }
  }

  /** Stops taking messages; what waits behind running turns is told to come back later. */
  stopAccepting(): void {
    this.#accepting = false;
    this.#workers.dropQueued();
  }

  /** Interrupts every running turn as part of shutdown (they stay listed as cut off). */
  interruptAll(): void {
    this.#workers.interruptAll();
  }

  /** Resolves when no session has anything running or waiting. */
  settled(): Promise<void> {
    return this.#workers.settled();
  }

  // ---- CommandHost ----

  async agentFor(key: string, message: InboundMessage): Promise<AgentHandle> {
    const slot = this.slots.ensure(key, message.platform);
    const held = this.cache.peek(key);
    if (held) return held;
    const route = await this.store.getRoute(key);
    return this.cache.get(key, this.#workers.request(slot, message, route?.sessionId));
  }

  exclusive<T>(key: string, message: InboundMessage, job: () => Promise<T>): Promise<T> {
    return this.#workers.exclusive(this.slots.ensure(key, message.platform), job);
  }

  async stopSession(key: string, wait: boolean): Promise<{ stopped: boolean; dropped: number }> {
    const slot = this.slots.peek(key);
    return slot ? this.#workers.stop(slot, wait) : { stopped: false, dropped: 0 };
  }

  // ---- steps 1–3 ----

  #validate(raw: InboundMessage, context: InboundContext | undefined): InboundMessage | undefined {
    const parsed = InboundMessageSchema.safeParse(raw);
    if (parsed.success) return parsed.data;
    safeLog(this.#deps.log, 'warn', 'gateway: dropped a malformed inbound message', {
      issues: parsed.error.issues.length,
    });
    context?.sink?.fail({ code: 'gateway.bad_message', message: 'The message was malformed.' });
    return undefined;
  }

  #adapterFor(message: InboundMessage, context: InboundContext | undefined) {
    const adapter = this.#deps.adapters.get(message.platform);
    if (adapter) return adapter;
    safeLog(this.#deps.log, 'warn', 'gateway: a message from a platform with no adapter', {
      platform: message.platform,
    });
    context?.sink?.fail({
      code: 'gateway.no_adapter',
      message: 'No adapter serves this platform.',
    });
    return undefined;
  }

  #replyFor(
    adapter: PlatformAdapter,
    message: InboundMessage,
    key: string,
    context: InboundContext | undefined,
  ): ReplyChannel {
    if (context?.sink) return sinkChannel(context.sink, this.#deps.log);
    const target = {
      chatId: message.chatId,
      ...(message.threadId ? { threadId: message.threadId } : {}),
    };
    return chatChannel(adapter, target, {
      store: this.store,
      settings: this.settings,
      sessionKey: key,
      log: this.#deps.log,
      clock: this.#deps.clock,
      timers: this.#deps.timers,
    });
  }

  async #authorized(
    message: InboundMessage,
    adapter: PlatformAdapter,
    reply: ReplyChannel,
  ): Promise<boolean> {
    const deps = {
      settings: this.settings,
      platform: this.#deps.platforms.get(message.platform),
      pairing: this.#deps.pairing,
    };
    const verdict = await authorize(message, adapter, deps);
    if (verdict.allowed) return true;
    safeLog(this.#deps.log, 'info', 'gateway: unauthorized message', {
      platform: message.platform,
      userId: message.userId,
      direct: message.isDirect,
    });
    if (reply.ownSink) {
      await reply.refuse('gateway.unauthorized', NOT_AUTHORIZED);
      return false;
    }
    const text = await pairingReply(message, { ...deps, clock: this.#deps.clock });
    if (text !== undefined) await reply.notice(text);
    return false;
  }

  async #facts(key: string): Promise<{ sessionId?: string; model?: string }> {
    const agent = this.cache.peek(key)?.agent;
    const sessionId = agent?.sessionId ?? (await this.store.getRoute(key))?.sessionId;
    return {
      ...(sessionId !== undefined ? { sessionId } : {}),
      ...(agent ? { model: agent.model } : {}),
    };
  }
}
