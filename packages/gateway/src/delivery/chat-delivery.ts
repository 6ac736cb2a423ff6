/**
 * Delivery of one turn to a chat platform (issue 17, pipeline step 7): the {@link TurnSink} the
 * pipeline hands a turn's events to when the reply goes back through a `PlatformAdapter`.
 */
import type { AgentEvent, AgentEventOf } from '@hermes/protocol';
import { errorFields, type GatewayLog, safeLog, silentLog } from '../log.js';
import type { SendTarget } from '../messages.js';
import type { PlatformAdapter } from '../platform-adapter.js';
import type { GatewaySettings, ToolProgress } from '../settings/gateway-settings.js';
import type { GatewayStore } from '../store/gateway-store.js';
import type { TurnOutcome, TurnSink } from '../turn-sink.js';
import { isDeadTargetError } from './dead-target.js';
import {
  DEFAULT_DELIVERY_RETRY,
  type DeliveryRetryPolicy,
  deliverParts,
  openLedgerEntry,
} from './deliver-parts.js';
import { type DeliverTextOptions, deliverText } from './deliver-text.js';
import { EditThrottle } from './edit-throttle.js';
import { MessageBlock } from './message-block.js';
import { providerErrorSentence } from './provider-error-sentence.js';
import { redactForChat } from './redact-for-chat.js';
import { showableStreamingText } from './streaming-text.js';
import { SYSTEM_TIMERS, type Timers } from './timers.js';
import {
  formatSmartRuling,
  formatToolLine,
  ToolProgressFilter,
  toolOutcomeMark,
} from './tool-progress.js';

/** What a {@link ChatDelivery} sends through, records in, and how it paces itself. */
export interface ChatDeliveryOptions {
  readonly adapter: PlatformAdapter;
  readonly target: SendTarget;
  /** The session key the reply belongs to (for the ledger). */
  readonly sessionKey: string;
  /** The platform name the ledger and `resendPending` know the adapter by. */
  readonly platform: string;
  readonly store: GatewayStore;
  readonly stream: GatewaySettings['stream'];
  readonly toolProgress: ToolProgress;
  /** Milliseconds since the epoch; default `Date.now`. */
  readonly clock?: () => number;
  /** The throttle's and the retries' timers; default Node's. */
  readonly timers?: Timers;
  /** Tries per part of the final reply; default {@link DEFAULT_DELIVERY_RETRY}. */
  readonly retry?: DeliveryRetryPolicy;
  readonly log?: GatewayLog;
}

/** A run of the reply that shows as its own messages: answer text, or tool progress lines. */
interface Block {
  readonly kind: 'text' | 'progress';
  readonly messages: MessageBlock;
  /** No more text comes: show it whole, then forget it. */
  closed: boolean;
  buffer: string;
  readonly lines: string[];
  readonly callIds: string[];
}

/**
 * A {@link TurnSink} that puts a turn's reply in a chat, by the platform's rules:
 *
 * - Where `capabilities(chatId).canEdit` and `stream.enabled`, the answer shows as soon as there
 *   is text and is then edited in place at most once per `stream.editIntervalMs` (the final edit
 *   is not throttled); past `maxMessageLength` the message is left as it is and the answer
 *   continues in a new one. Elsewhere each stretch of text is sent when it is complete.
 * - Text is redacted ({@link redactForChat}), rendered (`adapter.renderMarkdown`) and split
 *   (`adapter.splitMessage`), so no message exceeds the limit and no key reaches the chat; the
 *   unfinished last word of a streaming answer is held back while it could be part of a key.
 * - Tool calls get a line each per `toolProgress` (`all`, `new`: only when the tool changes,
 *   `off`), kept in one message edited in place where the platform can edit.
 * - A failed turn, or {@link ChatDelivery.fail}, becomes one human sentence
 *   ({@link providerErrorSentence}).
 * - The final reply goes through the delivery ledger: recorded before its first part, progress
 *   per part, completed at the end; a dead chat drops it, other failures are retried with
 *   backoff and then left for `resendPending`.
 *
 * Sends and edits run one at a time in event order. Methods never throw.
 */
export class ChatDelivery implements TurnSink {
  /** Settles once the final reply is fully sent or given up (never rejects). */
  readonly done: Promise<void>;
  readonly #o: ChatDeliveryOptions;
  readonly #clock: () => number;
  readonly #timers: Timers;
  readonly #log: GatewayLog;
  readonly #canEdit: boolean;
  /** Stream the answer by editing: the platform can edit and streaming is on. */
  readonly #live: boolean;
  readonly #throttle: EditThrottle;
  readonly #filter: ToolProgressFilter;
  readonly #blocks: Block[] = [];
  #resolveDone: () => void = () => {};
  #tail: Promise<void> = Promise.resolve();
  #syncQueued = false;
  #streamWanted = false;
  #lastError: { code: string; message: string } | undefined;
  #finished = false;
  #dead = false;

  constructor(options: ChatDeliveryOptions) {
    this.#o = options;
    this.#clock = options.clock ?? Date.now;
    this.#timers = options.timers ?? SYSTEM_TIMERS;
    this.#log = options.log ?? silentLog;
    this.#canEdit = options.adapter.capabilities(options.target.chatId).canEdit;
    this.#live = this.#canEdit && options.stream.enabled;
    this.#filter = new ToolProgressFilter(options.toolProgress);
    this.#throttle = new EditThrottle(
      options.stream.editIntervalMs,
      this.#clock,
      this.#timers,
      () => this.#requestSync(true),
    );
    this.done = new Promise((resolve) => {
      this.#resolveDone = resolve;
    });
  }

  /** Resolves once every send and edit queued so far has run (for tests and shutdown). */
  settled(): Promise<void> {
    return this.#tail;
  }

  event(event: AgentEvent): void {
    if (this.#finished || this.#dead) return;
    try {
      this.#onEvent(event);
    } catch (error) {
      safeLog(this.#log, 'warn', 'delivery: an event could not be shown', errorFields(error));
    }
  }

  #onEvent(event: AgentEvent): void {
    if (event.type === 'text_delta') this.#onText(event.delta);
    else if (event.type === 'tool_call_start') this.#onToolStart(event);
    else if (event.type === 'tool_call_end') this.#onToolEnd(event);
    else if (event.type === 'approval_resolution') this.#onRuling(event);
    else if (event.type === 'error' && !event.retryable) {
      this.#lastError = { code: event.code, message: event.message };
    } else if (event.type === 'turn_start') {
      Promise.resolve(this.#o.adapter.sendTyping(this.#o.target)).catch(() => {});
    }
  }

  notice(text: string): void {
    if (this.#dead) return;
    this.#enqueue(async () => {
      if (this.#dead) return;
      await deliverText(this.#o.adapter, this.#o.target, text, this.#textOptions()).catch(
        (error: unknown) => this.#failed(error),
      );
    });
  }

  finish(outcome: TurnOutcome): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#throttle.cancel();
    if (outcome.failed) {
      const sentence = providerErrorSentence(this.#lastError ?? { message: outcome.text });
      this.#deliverFinal(sentence, undefined);
      return;
    }
    const open = this.#openBlock();
    const segment = open?.kind === 'text' ? open : undefined;
    if (segment) this.#blocks.pop();
    this.#deliverFinal(outcome.text || (segment?.buffer ?? ''), segment?.messages);
  }

  fail(error: { readonly code: string; readonly message: string }): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#throttle.cancel();
    this.#deliverFinal(providerErrorSentence(error), undefined);
  }

  #onText(delta: string): void {
    let open = this.#openBlock();
    if (open?.kind !== 'text') {
      this.#closeOpen();
      open = this.#newBlock('text');
    }
    open.buffer += delta;
    if (this.#live) this.#throttle.request();
  }

  #onToolStart(event: AgentEventOf<'tool_call_start'>): void {
    if (this.#openBlock()?.kind === 'text') this.#closeOpen();
    if (!this.#filter.shows(event.name)) return;
    this.#addProgressLine(formatToolLine(event.name, event.arguments), event.toolCallId);
  }

  /**
   * The smart judge's ruling gets its own progress line whatever `toolProgress` says: a command
   * run or refused without asking anyone is something the user must be able to see.
   */
  #onRuling(event: AgentEventOf<'approval_resolution'>): void {
    const line = formatSmartRuling(event);
    if (!line) return;
    if (this.#openBlock()?.kind === 'text') this.#closeOpen();
    this.#addProgressLine(line, `ruling:${event.requestId}`);
  }

  #addProgressLine(line: string, id: string): void {
    let open = this.#openBlock();
    if (!open) open = this.#newBlock('progress');
    open.lines.push(line);
    open.callIds.push(id);
    if (this.#canEdit) {
      this.#throttle.request();
    } else {
      // Without edits a line cannot grow into a list: each call is its own message.
      this.#closeOpen();
    }
  }

  #onToolEnd(event: AgentEventOf<'tool_call_end'>): void {
    const mark = toolOutcomeMark(event.outcome);
    const open = this.#openBlock();
    const index = open?.kind === 'progress' ? open.callIds.lastIndexOf(event.toolCallId) : -1;
    if (!open || !mark || index < 0) return;
    open.lines[index] = `${open.lines[index] ?? ''}${mark}`;
    this.#throttle.request();
  }

  #newBlock(kind: Block['kind']): Block {
    const block: Block = {
      kind,
      messages: new MessageBlock(this.#o.adapter, this.#o.target),
      closed: false,
      buffer: '',
      lines: [],
      callIds: [],
    };
    this.#blocks.push(block);
    return block;
  }

  #openBlock(): Block | undefined {
    const last = this.#blocks[this.#blocks.length - 1];
    return last && !last.closed ? last : undefined;
  }

  /** Closes the open block and shows it whole at once (the final edit is never throttled). */
  #closeOpen(): void {
    const open = this.#openBlock();
    if (!open) return;
    open.closed = true;
    this.#requestSync(false);
  }

  #requestSync(stream: boolean): void {
    this.#streamWanted ||= stream;
    if (this.#syncQueued) return;
    this.#syncQueued = true;
    this.#enqueue(async () => {
      const streaming = this.#streamWanted;
      this.#syncQueued = false;
      this.#streamWanted = false;
      await this.#sync(streaming);
    });
  }

  /**
   * Shows closed blocks whole (then forgets them) and, when `streaming`, the open block as far
   * as it is showable. Closed blocks always come before the open one, so chat order holds.
   */
  async #sync(streaming: boolean): Promise<void> {
    while (this.#blocks[0]?.closed && !this.#dead) {
      const block = this.#blocks[0];
      await this.#guard(async () => {
        const parts = this.#parts(textOf(block));
        for (let index = 0; index < parts.length; index++) {
          await block.messages.put(index, parts[index] ?? '');
        }
      });
      this.#blocks.shift();
    }
    const open = this.#openBlock();
    if (!streaming || !open || this.#dead) return;
    if (open.kind === 'text' && !this.#live) return;
    const visible = open.kind === 'text' ? showableStreamingText(open.buffer) : textOf(open);
    if (visible.trim() === '') return;
    try {
      if (await open.messages.update(this.#parts(visible))) this.#throttle.ran();
    } catch (error) {
      // A failed try counts too: a failing platform must not be hammered once per delta.
      this.#throttle.ran();
      this.#failed(error);
    }
  }

  /** Sends the final reply through the ledger into `messages` (a streamed segment) or new ones. */
  #deliverFinal(text: string, messages: MessageBlock | undefined): void {
    this.#closeOpen();
    this.#enqueue(async () => {
      await this.#sync(false);
      if (!this.#dead) await this.#sendFinal(text, messages ?? this.#newMessages());
    });
    this.#tail.then(() => this.#resolveDone());
  }

  async #sendFinal(text: string, messages: MessageBlock): Promise<void> {
    const rendered = this.#render(text);
    const parts = this.#o.adapter.splitMessage(rendered, this.#o.target.chatId);
    if (parts.length === 0) return;
    const { store, sessionKey, platform, target } = this.#o;
    const entry = { sessionKey, platform, target, text: rendered, createdAt: this.#clock() };
    const id = await openLedgerEntry(store, entry, this.#log);
    const result = await deliverParts({
      store,
      id,
      parts,
      startAt: 0,
      sendPart: (index, part) => messages.put(index, part),
      retry: this.#o.retry ?? DEFAULT_DELIVERY_RETRY,
      timers: this.#timers,
      log: this.#log,
    });
    if (result.outcome === 'dead') this.#dead = true;
  }

  #newMessages(): MessageBlock {
    return new MessageBlock(this.#o.adapter, this.#o.target);
  }

  /** Redacted first: rendering may escape the very characters the patterns look for. */
  #render(text: string): string {
    return this.#o.adapter.renderMarkdown(redactForChat(text.trimEnd()));
  }

  #parts(text: string): string[] {
    return this.#o.adapter.splitMessage(this.#render(text), this.#o.target.chatId);
  }

  #textOptions(): DeliverTextOptions {
    const { store, sessionKey, platform, retry } = this.#o;
    const paced = { timers: this.#timers, clock: this.#clock, log: this.#log };
    return { store, sessionKey, platform, ...paced, ...(retry ? { retry } : {}) };
  }

  /** Runs a streaming send or edit; a failure is logged, and a dead chat stops everything. */
  async #guard(run: () => Promise<void>): Promise<void> {
    try {
      await run();
    } catch (error) {
      this.#failed(error);
    }
  }

  #failed(error: unknown): void {
    const cause = error instanceof Error ? error.cause : undefined;
    if (isDeadTargetError(error) || isDeadTargetError(cause)) this.#dead = true;
    safeLog(this.#log, 'warn', 'delivery: a send or edit failed', errorFields(error));
  }

  #enqueue(run: () => Promise<void>): void {
    this.#tail = this.#tail.then(run).catch((error: unknown) => this.#failed(error));
  }
}

function textOf(block: Block): string {
  return block.kind === 'text' ? block.buffer : block.lines.join('\n');
}
