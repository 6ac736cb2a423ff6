/** A minimal PlatformAdapter for tests: an in-memory chat platform. */
import { HermesError } from '@hermes/protocol';
import {
  type InboundHandler,
  type InboundMessage,
  type OutboundMessage,
  PlatformAdapter,
  type PlatformCapabilities,
  type SendTarget,
  type SentMessage,
} from '../../src/index.js';
import type { SimulatedInbound } from '../../src/testing.js';

/** A message the loopback platform accepted. */
export interface LoopbackSent {
  readonly target: SendTarget;
  readonly messageId: string;
  text: string;
}

/** An edit the loopback platform applied. */
export interface LoopbackEdit {
  readonly messageId: string;
  readonly text: string;
}

const DEFAULT_CAPABILITIES: PlatformCapabilities = {
  maxMessageLength: 500,
  canEdit: true,
  supportsDrafts: false,
  hasOwnAccessPolicy: false,
  supportsThreads: true,
  supportsMarkdown: true,
};

/**
 * Keeps sent messages in memory and delivers injected ones to the handler, one at a time,
 * containing handler errors in {@link LoopbackAdapter.handlerErrors}.
 */
export class LoopbackAdapter extends PlatformAdapter {
  readonly platform = 'loopback';
  readonly sent: LoopbackSent[] = [];
  readonly handlerErrors: unknown[] = [];
  /** Every applied edit, in order (`sent` holds each message's latest text). */
  readonly edits: LoopbackEdit[] = [];
  /**
   * Runs before each send is accepted; what it throws fails that send, and a promise it returns
   * delays it (a test can hold a send open, or kill the process mid-send).
   */
  onSend: ((target: SendTarget, message: OutboundMessage) => void | Promise<void>) | undefined;
  readonly #sendFailures: unknown[] = [];
  readonly #editFailures: unknown[] = [];
  readonly #capabilities: PlatformCapabilities;
  #handler: InboundHandler | undefined;
  #nextId = 1;

  constructor(capabilities: Partial<PlatformCapabilities> = {}) {
    super();
    this.#capabilities = { ...DEFAULT_CAPABILITIES, ...capabilities };
  }

  async connect(onMessage: InboundHandler): Promise<void> {
    this.#handler = onMessage;
  }

  async disconnect(): Promise<void> {
    this.#handler = undefined;
  }

  capabilities(): PlatformCapabilities {
    return this.#capabilities;
  }

  async send(target: SendTarget, message: OutboundMessage): Promise<SentMessage> {
    if (!this.#handler) {
      throw new HermesError('gateway.not_connected', 'the loopback adapter is not connected');
    }
    await this.onSend?.(target, message);
    if (this.#sendFailures.length > 0) throw this.#sendFailures.shift();
    const messageId = `out-${this.#nextId++}`;
    this.sent.push({ target, messageId, text: message.text });
    return { messageId };
  }

  override async edit(_target: SendTarget, messageId: string, text: string): Promise<boolean> {
    if (!this.#capabilities.canEdit) return false;
    if (this.#editFailures.length > 0) throw this.#editFailures.shift();
    const message = this.sent.find((m) => m.messageId === messageId);
    if (!message) return false;
    message.text = text;
    this.edits.push({ messageId, text });
    return true;
  }

  /** The next sends throw these errors, one each, in order. */
  failNextSends(...errors: unknown[]): void {
    this.#sendFailures.push(...errors);
  }

  /** The next edits throw these errors, one each, in order. */
  failNextEdits(...errors: unknown[]): void {
    this.#editFailures.push(...errors);
  }

  /** Delivers `simulated` as if a person had sent it; dropped when not connected. */
  async simulateInbound(simulated: SimulatedInbound): Promise<void> {
    const handler = this.#handler;
    if (!handler) return;
    const message: InboundMessage = {
      platform: this.platform,
      ...simulated,
      messageId: `in-${this.#nextId++}`,
      receivedAt: Date.now(),
    };
    try {
      await handler(message);
    } catch (error) {
      this.handlerErrors.push(error);
    }
  }
}
