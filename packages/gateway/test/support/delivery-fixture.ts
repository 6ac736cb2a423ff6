/** A ChatDelivery wired to a loopback chat, an in-memory ledger and a fake clock. */
import { type AgentEvent, emptyUsage } from '@hermes/protocol';
import { ChatDelivery, type ChatDeliveryOptions } from '../../src/delivery/chat-delivery.js';
import type { PlatformCapabilities } from '../../src/index.js';
import type { TurnOutcome } from '../../src/turn-sink.js';
import { FakeClock } from './fake-clock.js';
import { LoopbackAdapter } from './loopback-adapter.js';
import { MemoryGatewayStore } from './memory-gateway-store.js';

/** A loopback adapter that also notes when (on the fake clock) each edit landed. */
export class TimedLoopback extends LoopbackAdapter {
  readonly editTimes: number[] = [];
  /** Edits asked for, including refused and failed ones. */
  editAttempts = 0;
  /** While set, every edit throws it. */
  editFailure: Error | undefined;
  constructor(
    readonly clock: FakeClock,
    capabilities: Partial<PlatformCapabilities> = {},
  ) {
    super(capabilities);
  }
  override async edit(
    target: { chatId: string },
    messageId: string,
    text: string,
  ): Promise<boolean> {
    this.editAttempts++;
    if (this.editFailure) throw this.editFailure;
    const edited = await super.edit(target, messageId, text);
    if (edited) this.editTimes.push(this.clock.now());
    return edited;
  }
}

/** Everything a delivery test looks at. */
export interface DeliveryFixture {
  readonly clock: FakeClock;
  readonly adapter: TimedLoopback;
  readonly store: MemoryGatewayStore;
  readonly delivery: ChatDelivery;
}

/** Builds a connected fixture; `options` override the delivery's settings. */
export async function deliveryFixture(
  capabilities: Partial<PlatformCapabilities> = {},
  options: Partial<ChatDeliveryOptions> = {},
): Promise<DeliveryFixture> {
  const clock = new FakeClock();
  const adapter = new TimedLoopback(clock, capabilities);
  await adapter.connect(() => {});
  const store = new MemoryGatewayStore();
  const delivery = new ChatDelivery({
    adapter,
    target: { chatId: 'c1' },
    sessionKey: 'agent:default:loopback:dm:c1',
    platform: 'loopback',
    store,
    stream: { enabled: true, editIntervalMs: 1_000 },
    toolProgress: 'all',
    clock: clock.now,
    timers: clock.timers,
    ...options,
  });
  return { clock, adapter, store, delivery };
}

const TURN = 't1';

/** A `text_delta` event. */
export function delta(text: string): AgentEvent {
  return { type: 'text_delta', turnId: TURN, delta: text };
}

/** A `tool_call_start` event with `args` as its JSON arguments. */
export function toolStart(name: string, args: Record<string, unknown>, id = name): AgentEvent {
  return {
    type: 'tool_call_start',
    turnId: TURN,
    toolCallId: id,
    name,
    arguments: JSON.stringify(args),
  };
}

/** A `tool_call_end` event. */
export function toolEnd(
  name: string,
  outcome: 'ok' | 'error' | 'cancelled' = 'ok',
  id = name,
): AgentEvent {
  return {
    type: 'tool_call_end',
    turnId: TURN,
    toolCallId: id,
    name,
    outcome,
    durationMs: 5,
    preview: '',
  };
}

/** A completed (or, with `failed`, failed) outcome whose answer is `text`. */
export function outcome(text: string, failed = false): TurnOutcome {
  return {
    sessionId: 's1',
    text,
    exitReason: failed ? 'all_retries_exhausted_no_response' : 'completed',
    failed,
    usage: emptyUsage(),
    model: 'm',
  };
}

/** Waits (by turns of the event loop, never by a clock) until `condition` holds. */
export async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 10_000; i++) {
    if (condition()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** An `approval_resolution` event. */
export function ruling(
  decidedBy: 'user' | 'policy' | 'timeout' | 'smart',
  decision: 'once' | 'deny',
  command: string,
  reason: string,
): AgentEvent {
  return {
    type: 'approval_resolution',
    turnId: TURN,
    requestId: `req-${command.length}-${decision}`,
    decision,
    decidedBy,
    command,
    reason,
  };
}
