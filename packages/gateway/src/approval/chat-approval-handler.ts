/**
 * Approval in chat (seed 5.11, issue 17): a command the guard flagged is posted to the chat whose
 * turn is running, with its reason, and waits for `/approve`, `/deny` or a plain yes/no from the
 * person whose message started the turn. No answer in time, an aborted turn, or no chat at all
 * means deny.
 */
import { type ApprovalContext, ApprovalHandler } from '@hermes/approval';
import type { ApprovalDecision } from '@hermes/protocol';
import { redactCommand, redactForChat } from '../delivery/redact-for-chat.js';
import { SYSTEM_TIMERS, type Timers } from '../delivery/timers.js';
import { parseApprovalAnswer } from './parse-approval-answer.js';

/** The chat of the turn now running on the session: who may answer, and how to reach them. */
export interface ApprovalChannel {
  /** The person whose message started the turn; only their answer counts. */
  readonly userId: string;
  /** Posts a message to the turn's chat. A rejection means the person cannot be reached. */
  post(text: string): Promise<void>;
}

/** How long requests wait, and the clock they wait on. */
export interface ChatApprovalOptions {
  /** How long a request waits for an answer when its context sets no `timeoutMs`. */
  readonly timeoutMs: number;
  /** Milliseconds since the epoch; an answer at or past the deadline is refused. */
  readonly clock?: () => number;
  /** The timeout's timers; default Node's. */
  readonly timers?: Timers;
}

/** One request: posted (or queued to be), waiting for its answer. */
interface Waiting {
  readonly channel: ApprovalChannel;
  readonly deadline: number;
  readonly timeoutMs: number;
  readonly settled: Promise<void>;
  done: boolean;
  posted: boolean;
  settle(decision: ApprovalDecision): void;
}

/** "5 minutes", "1 minute", "30 seconds". */
export function describeWait(ms: number): string {
  if (ms >= 60_000) {
    const minutes = Math.round(ms / 60_000);
    return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  }
  const seconds = Math.max(1, Math.ceil(ms / 1_000));
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}

/** The message that asks for a ruling: reason, redacted command, how to answer. */
export function approvalRequestText(command: string, reason: string, timeoutMs: number): string {
  return [
    `⚠️ ${redactForChat(reason)}`,
    redactCommand(command),
    `Reply /approve, /approve session, /approve always or /deny (denied in ${describeWait(timeoutMs)}).`,
  ].join('\n');
}

/**
 * The gateway's {@link ApprovalHandler}: one per session. The pipeline {@link bind}s the chat of
 * each turn while it runs and hands every reply that may be an answer to {@link answer}.
 * Requests are asked one at a time, in order; each one's timeout runs from its `request` call.
 * Fails closed: unbound (no turn), an aborted `ctx.signal`, a post that fails, the timeout, or
 * unbinding while waiting all resolve `deny`.
 */
export class ChatApprovalHandler extends ApprovalHandler {
  readonly #timeoutMs: number;
  readonly #clock: () => number;
  readonly #timers: Timers;
  readonly #waiting = new Set<Waiting>();
  #channel: ApprovalChannel | undefined;
  #current: Waiting | undefined;
  #queue: Promise<void> = Promise.resolve();

  constructor(options: ChatApprovalOptions) {
    super();
    this.#timeoutMs = options.timeoutMs;
    this.#clock = options.clock ?? Date.now;
    this.#timers = options.timers ?? SYSTEM_TIMERS;
  }

  /**
   * The turn now running on this session (`undefined` when it ended). Unbinding, or binding
   * another turn, denies every request of the previous one.
   */
  bind(channel: ApprovalChannel | undefined): void {
    if (channel === this.#channel) return;
    this.#channel = channel;
    for (const waiting of [...this.#waiting]) waiting.settle('deny');
  }

  /** A request has been posted and waits for its answer. */
  get pending(): boolean {
    return this.#current !== undefined && !this.#current.done;
  }

  /**
   * Offers a chat message from `userId` as the answer to the posted request.
   *
   * @returns True when it was the answer (the request is settled); false when nothing waits,
   *   the sender is not the turn's user, the deadline passed, or the text is no answer.
   */
  answer(userId: string, text: string): boolean {
    const waiting = this.#current;
    if (!waiting || waiting.done || userId !== waiting.channel.userId) return false;
    if (this.#clock() >= waiting.deadline) return false;
    const decision = parseApprovalAnswer(text);
    if (decision === undefined) return false;
    waiting.settle(decision);
    return true;
  }

  override async request(
    command: string,
    reason: string,
    ctx: ApprovalContext,
  ): Promise<ApprovalDecision> {
    const channel = this.#channel;
    if (ctx.signal?.aborted || channel === undefined) return 'deny';
    const timeoutMs = ctx.timeoutMs ?? this.#timeoutMs;
    let resolveDecision: (decision: ApprovalDecision) => void = () => {};
    const decision = new Promise<ApprovalDecision>((resolve) => {
      resolveDecision = resolve;
    });
    const waiting = this.#wait(channel, timeoutMs, resolveDecision, ctx.signal);
    this.#queue = this.#queue.then(() => this.#ask(waiting, command, reason));
    return decision;
  }

  #wait(
    channel: ApprovalChannel,
    timeoutMs: number,
    resolve: (decision: ApprovalDecision) => void,
    signal: AbortSignal | undefined,
  ): Waiting {
    let markSettled: () => void = () => {};
    const onAbort = () => waiting.settle('deny');
    const timer = this.#timers.setTimeout(() => this.#timedOut(waiting), timeoutMs);
    const waiting: Waiting = {
      channel,
      timeoutMs,
      deadline: this.#clock() + timeoutMs,
      settled: new Promise((done) => {
        markSettled = done;
      }),
      done: false,
      posted: false,
      settle: (decision) => {
        if (waiting.done) return;
        waiting.done = true;
        this.#timers.clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.#waiting.delete(waiting);
        if (this.#current === waiting) this.#current = undefined;
        resolve(decision);
        markSettled();
      },
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    this.#waiting.add(waiting);
    return waiting;
  }

  /** Posts the request when its turn in the queue comes, then waits until it is settled. */
  async #ask(waiting: Waiting, command: string, reason: string): Promise<void> {
    if (waiting.done) return;
    if (this.#channel !== waiting.channel) return waiting.settle('deny');
    this.#current = waiting;
    try {
      await waiting.channel.post(approvalRequestText(command, reason, waiting.timeoutMs));
      waiting.posted = true;
    } catch {
      // The person cannot be reached, so nobody can allow the command.
      waiting.settle('deny');
    }
    await waiting.settled;
  }

  #timedOut(waiting: Waiting): void {
    if (waiting.done) return;
    const wasPosted = waiting.posted || this.#current === waiting;
    waiting.settle('deny');
    if (!wasPosted) return;
    const note = `No answer in ${describeWait(waiting.timeoutMs)}: the command was denied.`;
    waiting.channel.post(note).catch(() => {});
  }
}
