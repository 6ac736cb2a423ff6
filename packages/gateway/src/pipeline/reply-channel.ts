/**
 * Where everything about one inbound message goes back to: the chat it came from (through the
 * adapter, split and ledgered by the delivery module) or the adapter's own sink (an HTTP response).
 * The pipeline talks only to this interface, so no step knows which kind of platform it serves.
 */
import { emptyUsage } from '@hermes/protocol';
import { ChatDelivery } from '../delivery/chat-delivery.js';
import { deliverText } from '../delivery/deliver-text.js';
import type { Timers } from '../delivery/timers.js';
import { errorFields, type GatewayLog, safeLog } from '../log.js';
import type { SendTarget } from '../messages.js';
import type { PlatformAdapter } from '../platform-adapter.js';
import type { GatewaySettings } from '../settings/gateway-settings.js';
import type { GatewayStore } from '../store/gateway-store.js';
import type { TurnOutcome, TurnSink } from '../turn-sink.js';
import { redactingSink } from './redacting-sink.js';

/** A turn's sink and when its reply is fully delivered. */
export interface TurnDelivery {
  readonly sink: TurnSink;
  /** Settles when the reply is sent (or given up); never rejects. */
  readonly done: Promise<void>;
}

/** The way back to whoever sent one message. Methods never throw: failures are logged. */
export interface ReplyChannel {
  /** The adapter answers over its own channel (a sink), not by sending chat messages. */
  readonly ownSink: boolean;
  /** A gateway line while the message is handled ("queued (1 ahead)", a reset notice). */
  notice(text: string): Promise<void>;
  /** The message's whole answer when it produced no turn (a slash command). */
  answer(text: string, facts?: { sessionId?: string; model?: string }): Promise<void>;
  /** The message produced no turn and no answer: refused, cancelled, shutting down. */
  refuse(code: string, text: string): Promise<void>;
  /** Opens the sink for this message's turn. */
  openTurn(sessionKey: string): TurnDelivery;
}

/** What a chat channel needs beside its adapter and target. */
export interface ChatChannelDeps {
  readonly store: GatewayStore;
  readonly settings: GatewaySettings;
  readonly sessionKey: string;
  readonly log: GatewayLog;
  readonly clock: () => number;
  readonly timers: Timers;
}

/** Replies by sending chat messages through `adapter` to `target`. */
export function chatChannel(
  adapter: PlatformAdapter,
  target: SendTarget,
  deps: ChatChannelDeps,
): ReplyChannel {
  const send = async (text: string): Promise<void> => {
    try {
      await deliverText(adapter, target, text, {
        store: deps.store,
        sessionKey: deps.sessionKey,
        platform: adapter.platform,
        log: deps.log,
        clock: deps.clock,
        timers: deps.timers,
      });
    } catch (error) {
      safeLog(deps.log, 'warn', 'gateway: a notice could not be sent', {
        platform: adapter.platform,
        chatId: target.chatId,
        ...errorFields(error),
      });
    }
  };
  return {
    ownSink: false,
    notice: send,
    answer: (text) => send(text),
    refuse: (_code, text) => send(text),
    openTurn(sessionKey) {
      const delivery = new ChatDelivery({
        adapter,
        target,
        sessionKey,
        platform: adapter.platform,
        store: deps.store,
        stream: deps.settings.stream,
        toolProgress: deps.settings.toolProgress,
        clock: deps.clock,
        timers: deps.timers,
        log: deps.log,
      });
      return { sink: guardedSink(delivery, deps.log), done: delivery.done.catch(() => undefined) };
    },
  };
}

/** Replies through an adapter's own sink (an HTTP response). */
export function sinkChannel(sink: TurnSink, log: GatewayLog): ReplyChannel {
  const guarded = guardedSink(redactingSink(sink), log);
  let resolveDone: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    resolveDone = resolve;
  });
  const settle: TurnSink = {
    event: (event) => guarded.event(event),
    notice: (text) => guarded.notice(text),
    finish(outcome) {
      guarded.finish(outcome);
      resolveDone();
    },
    fail(error) {
      guarded.fail(error);
      resolveDone();
    },
  };
  return {
    ownSink: true,
    async notice(text) {
      settle.notice(text);
    },
    async answer(text, facts = {}) {
      settle.finish(answerOutcome(text, facts));
    },
    async refuse(code, text) {
      settle.fail({ code, message: text });
    },
    openTurn: () => ({ sink: settle, done }),
  };
}

/** The outcome a sink gets for a message answered without a turn. */
function answerOutcome(text: string, facts: { sessionId?: string; model?: string }): TurnOutcome {
  return {
    sessionId: facts.sessionId ?? '',
    text,
    exitReason: 'completed',
    failed: false,
    usage: emptyUsage(),
    model: facts.model ?? '',
  };
}

/** A sink whose throws are logged and contained (the seam asks implementations not to throw). */
function guardedSink(sink: TurnSink, log: GatewayLog): TurnSink {
  const contain =
    <A extends unknown[]>(name: string, call: (...args: A) => void) =>
    (...args: A): void => {
      try {
        call(...args);
      } catch (error) {
        safeLog(log, 'warn', `gateway: a turn sink threw in ${name}`, errorFields(error));
      }
    };
  return {
    event: contain('event', (event) => sink.event(event)),
    notice: contain('notice', (text) => sink.notice(text)),
    finish: contain('finish', (outcome) => sink.finish(outcome)),
    fail: contain('fail', (error) => sink.fail(error)),
  };
}
