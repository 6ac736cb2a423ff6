/**
 * Steps 4–7, on each session's worker: one item at a time per session key, in queue order. A
 * turn holds the session's lane from the session step to its answer: session (key's route,
 * reset) → the cached agent → hygiene → the turn → delivery. Slash commands that must not
 * overlap a turn (`/compress`) run here too, as jobs.
 */
import type { AgentCache } from '../agents/agent-cache.js';
import type { AgentRequest } from '../agents/agent-factory.js';
import type { HygieneGate } from '../hygiene/hygiene-gate.js';
import type { SessionLane } from '../lane/session-lane.js';
import { errorFields, type GatewayLog, safeLog } from '../log.js';
import type { InboundContext, InboundMessage } from '../messages.js';
import type { SessionDirectory } from '../session/session-directory.js';
import type { GatewaySettings } from '../settings/gateway-settings.js';
import type { GatewayStore } from '../store/gateway-store.js';
import type { BoundedMap } from './bounded-map.js';
import { runHygieneStep } from './hygiene-step.js';
import { CANCELLED, DROPPED_BY_STOP, RESTARTING, TURN_CRASHED } from './notices.js';
import type { ReplyChannel, TurnDelivery } from './reply-channel.js';
import type { JobWork, SessionSlot, SessionSlots, SessionWork, TurnWork } from './session-slots.js';
import { resolveTurnSession } from './session-step.js';
import { runTurnStep, SHUTDOWN_REASON } from './turn-step.js';
import type { UsageTally } from './usage-tally.js';

/** What the workers use. */
export interface WorkerDeps {
  readonly settings: GatewaySettings;
  readonly store: GatewayStore;
  readonly directory: SessionDirectory;
  readonly cache: AgentCache;
  readonly lane: SessionLane;
  readonly hygiene: HygieneGate;
  readonly slots: SessionSlots;
  readonly usage: UsageTally;
  /** `/model` choices by session key. */
  readonly models: BoundedMap<string, string>;
  readonly log: GatewayLog;
  readonly clock: () => number;
  /** Whether the gateway still takes new work (follow-up turns stop at shutdown). */
  readonly accepting: () => boolean;
  /** Never reuse a cached agent across turns (other processes share the sessions). */
  readonly freshAgents?: boolean;
}

/** Runs every session's queue. */
export class SessionWorkers {
  readonly #deps: WorkerDeps;

  constructor(deps: WorkerDeps) {
    this.#deps = deps;
  }

  /** Puts `work` on `slot`'s queue (in front when `first`) and makes sure its worker runs. */
  readonly enqueue = (slot: SessionSlot, work: TurnWork, first: boolean): void => {
    if (first) slot.queue.unshift(work);
    else slot.queue.push(work);
    this.#kick(slot);
  };

  /** Runs `job` on `slot`'s worker after what is queued, holding the lane; resolves its result. */
  exclusive<T>(slot: SessionSlot, job: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const work: JobWork = {
        kind: 'job',
        stop: new AbortController(),
        cancel: (reason) => reject(new Error(reason)),
        run: async () => {
          const lease = await this.#deps.lane.acquire(slot.key);
          slot.pinned = true;
          try {
            resolve(await job());
          } catch (error) {
            reject(error);
          } finally {
            slot.pinned = false;
            lease.release();
          }
        },
      };
      slot.queue.push(work);
      this.#kick(slot);
    });
  }

  /** `/stop`: aborts the current item and drops the queue; with `wait`, awaits the worker. */
  async stop(slot: SessionSlot, wait: boolean): Promise<{ stopped: boolean; dropped: number }> {
    const stopped = slot.current?.kind === 'turn';
    const dropped = slot.stopAll();
    for (const item of dropped) settleDropped(item, 'gateway.stopped', DROPPED_BY_STOP, false);
    if (wait && slot.worker) await slot.worker;
    return { stopped, dropped: dropped.filter((item) => item.kind === 'turn').length };
  }

  /** Shutdown, step one: what waits behind running turns is told to come back later. */
  dropQueued(): void {
    for (const slot of this.#deps.slots.values()) {
      for (const item of slot.queue.splice(0)) {
        settleDropped(item, 'gateway.restarting', RESTARTING, true);
      }
    }
  }

  /** Shutdown after the drain deadline: interrupts every running turn (left listed as cut off). */
  interruptAll(): void {
    for (const slot of this.#deps.slots.values()) {
      for (const item of slot.stopAll(SHUTDOWN_REASON)) {
        settleDropped(item, 'gateway.restarting', RESTARTING, true);
      }
    }
  }

  /** Resolves when no session has anything running or waiting. */
  async settled(): Promise<void> {
    for (;;) {
      const workers = [...this.#deps.slots.values()].flatMap((slot) =>
        slot.worker ? [slot.worker] : [],
      );
      if (workers.length === 0) return;
      await Promise.all(workers);
    }
  }

  /** The AgentRequest for `slot`'s session: its approval handler, `/model` choice and chat. */
  request(slot: SessionSlot, message: InboundMessage, sessionId: string | undefined): AgentRequest {
    const model = this.#deps.models.get(slot.key);
    return {
      sessionKey: slot.key,
      platform: message.platform,
      userId: message.userId,
      approvalHandler: slot.approval,
      origin: {
        platform: message.platform,
        chatId: message.chatId,
        ...(message.threadId !== undefined ? { threadId: message.threadId } : {}),
      },
      ...(sessionId !== undefined ? { sessionId } : {}),
      ...(model !== undefined ? { model } : {}),
    };
  }

  #kick(slot: SessionSlot): void {
    if (slot.worker) return;
    slot.worker = this.#drain(slot).finally(() => {
      slot.worker = undefined;
      // Work queued between the last take and this moment still gets a worker.
      if (slot.queue.length > 0) this.#kick(slot);
      else if (!this.#deps.cache.peek(slot.key)) this.#deps.slots.dropIfIdle(slot.key);
    });
  }

  async #drain(slot: SessionSlot): Promise<void> {
    for (let work = slot.queue.shift(); work !== undefined; work = slot.queue.shift()) {
      slot.current = work;
      try {
        if (work.kind === 'job') await work.run();
        else await this.#turn(slot, work);
      } catch (error) {
        safeLog(this.#deps.log, 'error', 'gateway: session work failed', {
          key: slot.key,
          ...errorFields(error),
        });
      } finally {
        slot.current = undefined;
      }
    }
  }

  /** Steps 4–7 for one message. */
  async #turn(slot: SessionSlot, work: TurnWork): Promise<void> {
    const cancelled = () => settleDropped(work, 'gateway.cancelled', CANCELLED, false);
    if (work.stop.signal.aborted) return cancelled();
    const lease = await this.#deps.lane.acquire(slot.key, work.stop.signal).catch(() => undefined);
    if (!lease) return cancelled();
    let delivery: TurnDelivery | undefined;
    try {
      const session = await resolveTurnSession(slot.key, work, this.#deps); // 4. session, reset
      const request = this.request(slot, work.message, session.sessionId);
      const { agent } = await this.#deps.cache.get(slot.key, request);
      slot.pinned = true;
      if (!session.history) await runHygieneStep(slot.key, agent, work.reply, this.#deps); // 5.
      delivery = work.reply.openTurn(slot.key); // 7. opened first: the turn streams into it
      const result = await runTurnStep(slot, agent, work, session, delivery.sink, this.#deps); // 6.
      if (result?.pendingSteer) this.#followUp(slot, work, result.pendingSteer);
    } catch (error) {
      safeLog(this.#deps.log, 'error', 'gateway: the turn could not start', {
        key: slot.key,
        ...errorFields(error),
      });
      if (delivery) delivery.sink.fail({ code: 'gateway.turn_crashed', message: TURN_CRASHED });
      else await work.reply.refuse('gateway.turn_crashed', TURN_CRASHED);
    } finally {
      slot.pinned = false;
      lease.release();
      work.release();
    }
    await delivery?.done;
  }

  /**
   * Steer notes that never reached the model (the turn ended before a tool result could carry
   * them) run as the session's next turn, so nothing the person said is lost.
   */
  #followUp(slot: SessionSlot, work: TurnWork, text: string): void {
    if (work.reply.ownSink || work.stop.signal.aborted || !this.#deps.accepting()) return;
    this.enqueue(slot, turnWork(work.message, undefined, work.reply, text), true);
  }
}

/** Settles an item that will not run: its client hears why (chat senders only when `tell`). */
function settleDropped(item: SessionWork, code: string, text: string, tell: boolean): void {
  if (item.kind === 'job') {
    item.cancel(text);
    return;
  }
  item.release();
  if (item.reply.ownSink) void item.reply.refuse(code, text);
  else if (tell) void item.reply.notice(text);
}

/** A message's work item; aborting the client's signal stops it like `/stop` would. */
export function turnWork(
  message: InboundMessage,
  context: InboundContext | undefined,
  reply: ReplyChannel,
  text = message.text,
): TurnWork {
  const stop = new AbortController();
  const signal = context?.signal;
  const onAbort = () => stop.abort('client');
  if (signal?.aborted) stop.abort('client');
  else signal?.addEventListener('abort', onAbort, { once: true });
  return {
    kind: 'turn',
    message,
    text,
    context,
    reply,
    stop,
    release: () => signal?.removeEventListener('abort', onAbort),
  };
}
