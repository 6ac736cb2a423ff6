/**
 * The in-memory state of each session key the gateway is working on: what runs now, what waits
 * behind it, and the approval handler its agent asks. One worker per key takes the waiting items
 * one at a time, which is what makes "busy" a fact rather than a guess.
 */
import type { Agent } from '@hermes/loop';
import type { ChatApprovalHandler } from '../approval/chat-approval-handler.js';
import type { InboundContext, InboundMessage } from '../messages.js';
import type { ReplyChannel } from './reply-channel.js';

/** A message waiting for, or having, its turn. */
export interface TurnWork {
  readonly kind: 'turn';
  readonly message: InboundMessage;
  /** What the agent is told: the message's text, or steer notes that never reached the model. */
  readonly text: string;
  readonly context: InboundContext | undefined;
  readonly reply: ReplyChannel;
  /** Aborted by `/stop`, the `interrupt` policy, shutdown, or the client's own signal. */
  readonly stop: AbortController;
  /** Detaches from the client's signal once the work is over (idempotent). */
  release(): void;
}

/** Something else that must not overlap a turn of the session (`/compress`). */
export interface JobWork {
  readonly kind: 'job';
  readonly run: () => Promise<void>;
  /** Settles the job's caller when the job is dropped before it ran. */
  readonly cancel: (reason: string) => void;
  readonly stop: AbortController;
}

/** One item of a session's queue. */
export type SessionWork = TurnWork | JobWork;

/** One session key's live state. */
export class SessionSlot {
  readonly key: string;
  readonly platform: string;
  /** Asked by this session's agent; bound to the chat of the turn running now. */
  readonly approval: ChatApprovalHandler;
  /** Items waiting behind the current one, oldest first. */
  readonly queue: SessionWork[] = [];
  /** The item being worked on (waiting for the lane, compressing, running, delivering). */
  current: SessionWork | undefined;
  /** The agent of the turn inside `runConversation` right now. */
  agent: Agent | undefined;
  /** The worker draining the queue; undefined when the session is idle. */
  worker: Promise<void> | undefined;
  /**
   * The cached agent is in use (handed out for a turn or a job) and must not be evicted. Not
   * set while the session step runs, which may itself evict an agent on the wrong session.
   */
  pinned = false;

  constructor(key: string, platform: string, approval: ChatApprovalHandler) {
    this.key = key;
    this.platform = platform;
    this.approval = approval;
  }

  /** Something runs or waits on this session. */
  get busy(): boolean {
    return this.worker !== undefined;
  }

  /**
   * Aborts the current item (with `reason`, which the turn step reads) and empties the queue;
   * returns the dropped items for the caller to settle.
   */
  stopAll(reason?: string): SessionWork[] {
    this.current?.stop.abort(reason);
    const dropped = this.queue.splice(0);
    for (const item of dropped) item.stop.abort(reason);
    return dropped;
  }
}

/** Every live session slot, by key. */
export class SessionSlots {
  readonly #slots = new Map<string, SessionSlot>();
  readonly #newApproval: () => ChatApprovalHandler;

  constructor(newApproval: () => ChatApprovalHandler) {
    this.#newApproval = newApproval;
  }

  /** The slot for `key`, created when missing. */
  ensure(key: string, platform: string): SessionSlot {
    let slot = this.#slots.get(key);
    if (!slot) {
      slot = new SessionSlot(key, platform, this.#newApproval());
      this.#slots.set(key, slot);
    }
    return slot;
  }

  peek(key: string): SessionSlot | undefined {
    return this.#slots.get(key);
  }

  /**
   * Forgets `key` when nothing runs or waits on it. Called when its agent leaves the cache: the
   * approval handler lives exactly as long as the agent that holds it.
   */
  dropIfIdle(key: string): void {
    const slot = this.#slots.get(key);
    if (slot && !slot.busy && slot.queue.length === 0) this.#slots.delete(key);
  }

  values(): IterableIterator<SessionSlot> {
    return this.#slots.values();
  }

  /** Turns running now (lane held or waited for, agent built, answer being delivered). */
  get runningTurns(): number {
    let count = 0;
    for (const slot of this.#slots.values()) if (slot.current?.kind === 'turn') count += 1;
    return count;
  }

  /** Messages waiting behind a running turn. */
  get queuedMessages(): number {
    let count = 0;
    for (const slot of this.#slots.values()) {
      for (const item of slot.queue) if (item.kind === 'turn') count += 1;
    }
    return count;
  }
}
