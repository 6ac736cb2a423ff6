/** The socket standard every chat platform plugs into. */
import type { PlatformCapabilities } from './capabilities.js';
import type { ConnectionState } from './connection-state.js';
import type { InboundHandler, OutboundMessage, SendTarget, SentMessage } from './messages.js';
import { splitText } from './split-text.js';

/**
 * Connects the gateway to one chat platform (Telegram, Discord, Slack, an HTTP API, …). The
 * adapter turns the platform's events into {@link InboundMessage}s, sends replies, and answers
 * capability questions, so the gateway never branches on a platform's name: it asks
 * `adapter.capabilities(chatId).maxMessageLength` instead of knowing that Discord allows 2,000.
 *
 * Required: {@link PlatformAdapter.platform}, {@link PlatformAdapter.connect},
 * {@link PlatformAdapter.disconnect}, {@link PlatformAdapter.send},
 * {@link PlatformAdapter.capabilities}. Optional, with safe defaults: `edit`, `sendDraft`,
 * `renderMarkdown`, `messageLength`, `splitMessage`, `sendTyping`, `setStatus`,
 * `connectionState`. Any optional
 * member added later will also have a default, so an adapter written today keeps working.
 *
 * The contract every adapter must honour is `describePlatformAdapterContract` in
 * `@hermes/gateway/testing`.
 */
export abstract class PlatformAdapter {
  /** The platform's name, lower-case (`telegram`, `api-server`); stamped on inbound messages. */
  abstract readonly platform: string;

  /**
   * Starts receiving: logs in, opens the socket or starts polling, then hands every inbound
   * message to `onMessage`, awaiting it. The adapter catches and logs what `onMessage` throws and
   * keeps going: one bad message must not stop a long-running gateway. Resolves once connected.
   *
   * @param onMessage - Receives each message, normalized and stamped with this `platform`.
   */
  abstract connect(onMessage: InboundHandler): Promise<void>;

  /**
   * Stops receiving and releases the connection. After it resolves, `onMessage` is not called
   * again. Idempotent, and safe to call before `connect`.
   */
  abstract disconnect(): Promise<void>;

  /**
   * Sends one message. `message.text` already fits the platform: the gateway splits long replies
   * with {@link PlatformAdapter.splitMessage} first.
   *
   * @returns The platform's id for the sent message, for later edits and replies.
   * @throws A `HermesError` when the platform refuses or cannot be reached.
   */
  abstract send(target: SendTarget, message: OutboundMessage): Promise<SentMessage>;

  /**
   * What the platform can do, for the whole platform or for one chat (limits can differ between
   * a DM and a channel). Must be cheap and synchronous: the gateway asks often.
   *
   * @param chatId - The chat being asked about, when there is one.
   */
  abstract capabilities(chatId?: string): PlatformCapabilities;

  /**
   * Replaces the text of a message this adapter sent. Default: edits nothing and resolves
   * `false`, and the caller sends a new message instead. Adapters whose capabilities say
   * `canEdit` override it and resolve `true` once edited.
   *
   * @returns Whether the message was edited.
   */
  async edit(_target: SendTarget, _messageId: string, _text: string): Promise<boolean> {
    return false;
  }

  /**
   * Shows or updates a streaming draft of a reply (`draftId` names one draft across updates).
   * Default: shows nothing and resolves `false`, and the caller streams by editing or sends only
   * the final text. Adapters whose capabilities say `supportsDrafts` override it.
   *
   * @returns Whether the draft was shown.
   */
  async sendDraft(_target: SendTarget, _draftId: string, _text: string): Promise<boolean> {
    return false;
  }

  /**
   * Turns the agent's Markdown into what the platform renders (Telegram MarkdownV2 escaping,
   * Slack mrkdwn, plain text for SMS). Default: returns `text` unchanged.
   */
  renderMarkdown(text: string): string {
    return text;
  }

  /**
   * Measures text the way the platform counts its length limit. Default: UTF-16 code units
   * (`text.length`), which is never less than the number of characters.
   */
  messageLength(text: string): number {
    return text.length;
  }

  /**
   * Splits (rendered) text into messages that each fit `capabilities(chatId).maxMessageLength`,
   * as measured by {@link PlatformAdapter.messageLength}, breaking at paragraphs, then lines, then
   * spaces. Default: {@link splitText}. Override to keep code fences or formatting balanced.
   */
  splitMessage(text: string, chatId?: string): string[] {
    const { maxMessageLength } = this.capabilities(chatId);
    return splitText(text, maxMessageLength, (part) => this.messageLength(part));
  }

  /** Shows "typing…" in the chat while the agent works. Default: does nothing. */
  async sendTyping(_target: SendTarget): Promise<void> {}

  /**
   * Shows a short status line for the chat (the running tool, "compressing context…"), or clears
   * it when `text` is `null`. Default: does nothing.
   */
  async setStatus(_target: SendTarget, _text: string | null): Promise<void> {}

  /**
   * How the live link to the platform is doing (up or reconnecting, and how often it has
   * reconnected), shown in `/health`. Default: `undefined`, and `/health` shows only whether
   * `connect` succeeded. Adapters with a long poll or a websocket override it, typically with a
   * `ConnectionTracker`. Must be cheap and synchronous.
   */
  connectionState(): ConnectionState | undefined {
    return undefined;
  }
}
