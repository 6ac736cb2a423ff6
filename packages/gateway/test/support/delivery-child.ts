/**
 * The gateway process of the delivery crash test: a ChatDelivery on a loopback chat, recording
 * in a real SqliteGatewayStore, whose send of part `hangAtPart` never returns, so the parent can
 * SIGKILL it between "the agent answered" and "the message was sent". Loaded by
 * `delivery-child.mjs` through Vite's module runner (no build step). Reports JSON lines:
 * `{type:'sent', index, text}` per accepted send, then `{type:'hanging', index}`.
 */
import { emptyUsage } from '@hermes/protocol';
import { ChatDelivery } from '../../src/delivery/chat-delivery.js';
import { SqliteGatewayStore } from '../../src/store/sqlite-gateway-store.js';
import { LoopbackAdapter } from './loopback-adapter.js';

/** What the parent asks for. */
export interface DeliveryChildConfig {
  readonly path: string;
  readonly text: string;
  readonly maxMessageLength: number;
  /** The send (0-based) that hangs forever. */
  readonly hangAtPart: number;
}

function report(message: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

/** Streams `config.text` as an answer and finishes the turn; never returns (the send hangs). */
export async function run(config: DeliveryChildConfig): Promise<void> {
  const store = SqliteGatewayStore.open({ path: config.path });
  const adapter = new LoopbackAdapter({
    canEdit: false,
    maxMessageLength: config.maxMessageLength,
  });
  await adapter.connect(() => {});
  let index = 0;
  adapter.onSend = async (_target, message) => {
    const part = index++;
    if (part === config.hangAtPart) {
      report({ type: 'hanging', index: part });
      await new Promise(() => {});
    }
    report({ type: 'sent', index: part, text: message.text });
  };
  const delivery = new ChatDelivery({
    adapter,
    target: { chatId: 'chat-1' },
    sessionKey: 'agent:default:loopback:dm:chat-1',
    platform: adapter.platform,
    store,
    stream: { enabled: true, editIntervalMs: 1_000 },
    toolProgress: 'all',
  });
  for (const word of config.text.split(' ')) {
    delivery.event({ type: 'text_delta', turnId: 't1', delta: `${word} ` });
  }
  delivery.finish({
    sessionId: 's1',
    text: config.text,
    exitReason: 'completed',
    failed: false,
    usage: emptyUsage(),
    model: 'm',
  });
  await delivery.done;
}
