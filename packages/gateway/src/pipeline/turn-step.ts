/**
 * Step 6: the turn itself, on the session's cached agent. Its events stream to the sink; its
 * start is recorded (route bound, in-flight entry written) the moment the agent has a session,
 * so a crash mid-turn is found on the next start; the session's approval handler is bound to
 * this message's channel for exactly the turn's duration.
 */
import type { Agent, TurnResult } from '@hermes/loop';
import { errorFields, type GatewayLog, safeLog } from '../log.js';
import type { SessionDirectory } from '../session/session-directory.js';
import type { GatewayStore } from '../store/gateway-store.js';
import type { TurnSink } from '../turn-sink.js';
import { TURN_CRASHED } from './notices.js';
import { outcomeOf } from './outcome.js';
import type { SessionSlot, TurnWork } from './session-slots.js';
import type { TurnSession } from './session-step.js';
import type { UsageTally } from './usage-tally.js';

/** The abort reason of a turn stopped because the gateway is shutting down. */
export const SHUTDOWN_REASON = 'gateway shutting down';

/** What the step needs. */
export interface TurnStepDeps {
  readonly store: GatewayStore;
  readonly directory: SessionDirectory;
  readonly usage: UsageTally;
  readonly log: GatewayLog;
  readonly clock: () => number;
}

/**
 * Runs `work`'s turn on `agent`, reporting to `sink` (events, then `finish` or `fail`). Resolves
 * the result, or `undefined` when the turn crashed before producing one.
 */
export async function runTurnStep(
  slot: SessionSlot,
  agent: Agent,
  work: TurnWork,
  session: TurnSession,
  sink: TurnSink,
  deps: TurnStepDeps,
): Promise<TurnResult | undefined> {
  const recorded: Promise<void>[] = [];
  const off = agent.on('event', (event) => {
    sink.event(event);
    if (event.type === 'turn_start') recorded.push(recordStart(slot, work, event.sessionId, deps));
  });
  slot.approval.bind({ userId: work.message.userId, post: (text) => work.reply.notice(text) });
  slot.agent = agent;
  let result: TurnResult | undefined;
  let crash: unknown;
  try {
    result = await agent.runConversation(work.text, {
      signal: work.stop.signal,
      ...(session.history ? { conversationHistory: session.history } : {}),
    });
  } catch (error) {
    crash = error;
  } finally {
    slot.agent = undefined;
    slot.approval.bind(undefined);
    off();
    await Promise.all(recorded);
  }
  await recordEnd(slot, work, deps);
  if (result === undefined) {
    safeLog(deps.log, 'error', 'gateway: the turn crashed', {
      key: slot.key,
      ...errorFields(crash),
    });
    sink.fail({ code: 'gateway.turn_crashed', message: TURN_CRASHED });
    return undefined;
  }
  deps.usage.add(result.sessionId, result);
  sink.finish(outcomeOf(result, agent.model));
  return result;
}

/** The turn has a session: bind the chat's route to it and list the turn as in flight. */
async function recordStart(
  slot: SessionSlot,
  work: TurnWork,
  sessionId: string,
  deps: TurnStepDeps,
): Promise<void> {
  const { message } = work;
  try {
    await deps.directory.bind(slot.key, message.platform, sessionId);
    await deps.store.beginTurn({
      sessionKey: slot.key,
      sessionId,
      platform: message.platform,
      target: {
        chatId: message.chatId,
        ...(message.threadId ? { threadId: message.threadId } : {}),
      },
      startedAt: deps.clock(),
    });
  } catch (error) {
    safeLog(deps.log, 'warn', 'gateway: could not record the turn start', {
      key: slot.key,
      ...errorFields(error),
    });
  }
}

/**
 * The turn ended: it leaves the in-flight list, unless the gateway's shutdown interrupted it —
 * then it stays listed, and the next start tells the chat its message was cut off.
 */
async function recordEnd(slot: SessionSlot, work: TurnWork, deps: TurnStepDeps): Promise<void> {
  try {
    if (work.stop.signal.reason !== SHUTDOWN_REASON) await deps.store.endTurn(slot.key);
    await deps.directory.touch(slot.key);
  } catch (error) {
    safeLog(deps.log, 'warn', 'gateway: could not record the turn end', {
      key: slot.key,
      ...errorFields(error),
    });
  }
}
