/**
 * Runs of `POST /v1/runs`: detached turns a client polls (`GET /v1/runs/:id`) or follows
 * (`/events`, which replays what already happened to a late subscriber). Each run keeps its
 * events (bounded) and is forgotten an hour after it ends, or sooner when too many pile up.
 */
import type { AgentEvent } from '@hermes/protocol';
import { runEventOf } from './run-events.js';
import type { TurnEnd, TurnListener } from './tracked-turn.js';
import { responsesUsage } from './wire-usage.js';

/** Where a run is. */
export type RunStatus =
  | 'running'
  | 'waiting_for_approval'
  | 'stopping'
  | 'completed'
  | 'failed'
  | 'cancelled';

/** One numbered event of a run. */
export interface RunEvent {
  readonly seq: number;
  readonly event: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/** Events kept per run; older ones are dropped first (a late subscriber misses them). */
export const MAX_RUN_EVENTS = 10_000;
/** Runs kept in all; the oldest finished ones go first. */
export const MAX_RUNS = 1_000;
/** How long a finished run stays pollable. */
export const RUN_RETENTION_MS = 3_600_000;

const TERMINAL = new Set<RunStatus>(['completed', 'failed', 'cancelled']);

/** Who a run is and what it continues. */
export interface RunFacts {
  readonly id: string;
  readonly chatId: string;
  readonly userId: string;
  readonly model: string;
  readonly sessionId?: string | undefined;
}

/** One run: its status, its events, and the subscribers following them. */
export class Run implements TurnListener {
  readonly facts: RunFacts;
  readonly createdAt = Math.floor(Date.now() / 1000);
  #status: RunStatus = 'running';
  #sessionId: string | undefined;
  #endedAt: number | undefined;
  #output: string | null = null;
  #usage: Record<string, unknown> | null = null;
  #error: { code: string; message: string } | null = null;
  #pending: { request_id: string; command: string; reason: string } | null = null;
  readonly #events: RunEvent[] = [];
  readonly #subscribers = new Set<(event: RunEvent) => void>();
  #seq = 0;

  constructor(facts: RunFacts) {
    this.facts = facts;
    this.#sessionId = facts.sessionId;
  }

  get status(): RunStatus {
    return this.#status;
  }

  /** Whether the run has ended. */
  get terminal(): boolean {
    return TERMINAL.has(this.#status);
  }

  /** When it ended (epoch ms), if it has. */
  get endedAt(): number | undefined {
    return this.#endedAt;
  }

  event(event: AgentEvent): void {
    if (event.type === 'turn_start') this.#sessionId = event.sessionId;
    if (event.type === 'approval_request') {
      this.#pending = { request_id: event.requestId, command: event.command, reason: event.reason };
      if (this.#status === 'running') this.#status = 'waiting_for_approval';
    }
    if (event.type === 'approval_resolution') {
      this.#pending = null;
      if (this.#status === 'waiting_for_approval') this.#status = 'running';
    }
    const frame = runEventOf(event);
    if (frame) this.record(frame.event, frame.data);
  }

  notice(text: string): void {
    this.record('notice', { text });
  }

  end(end: TurnEnd): void {
    this.#pending = null;
    this.#endedAt = Date.now();
    if (end.kind === 'fail') {
      this.#status = 'failed';
      this.#error = { code: end.error.code, message: end.error.message };
      this.record('run.failed', { error: this.#error });
      return;
    }
    const { outcome } = end;
    this.#sessionId = outcome.sessionId;
    this.#output = outcome.text;
    this.#usage = responsesUsage(outcome.usage);
    this.#status = outcome.failed
      ? 'failed'
      : outcome.exitReason.startsWith('interrupted')
        ? 'cancelled'
        : 'completed';
    if (outcome.failed) this.#error = { code: 'turn_failed', message: outcome.text };
    this.record(`run.${this.#status}`, {
      session_id: outcome.sessionId,
      output: outcome.text,
      usage: this.#usage,
      exit_reason: outcome.exitReason,
    });
  }

  /** Marks a stop as asked for (the pipeline ends the turn). */
  stopping(): void {
    if (!this.terminal) this.#status = 'stopping';
  }

  /** Appends an event and hands it to every subscriber. */
  record(event: string, data: Readonly<Record<string, unknown>>): void {
    const entry: RunEvent = {
      seq: ++this.#seq,
      event,
      data: { type: event, run_id: this.facts.id, ...data },
    };
    this.#events.push(entry);
    if (this.#events.length > MAX_RUN_EVENTS) this.#events.shift();
    for (const subscriber of this.#subscribers) subscriber(entry);
  }

  /**
   * Replays the events after `afterSeq`, then follows new ones until unsubscribed.
   *
   * @returns The function that stops following.
   */
  subscribe(afterSeq: number, listener: (event: RunEvent) => void): () => void {
    for (const entry of this.#events) if (entry.seq > afterSeq) listener(entry);
    this.#subscribers.add(listener);
    return () => this.#subscribers.delete(listener);
  }

  /** The run as `GET /v1/runs/:id` shows it. */
  toJSON(): Record<string, unknown> {
    return {
      id: this.facts.id,
      run_id: this.facts.id,
      object: 'hermes.run',
      status: this.#status,
      session_id: this.#sessionId ?? null,
      model: this.facts.model,
      created_at: this.createdAt,
      completed_at: this.#endedAt === undefined ? null : Math.floor(this.#endedAt / 1000),
      output: this.#output,
      usage: this.#usage,
      error: this.#error,
      pending_approval: this.#pending,
    };
  }
}

/** Every run this server knows, bounded. */
export class RunRegistry {
  readonly #runs = new Map<string, Run>();
  readonly #clock: () => number;

  constructor(clock: () => number = Date.now) {
    this.#clock = clock;
  }

  get size(): number {
    return this.#runs.size;
  }

  get(id: string): Run | undefined {
    return this.#runs.get(id);
  }

  /** The newest run on `chatId` that has not ended. */
  findRunning(chatId: string): Run | undefined {
    let found: Run | undefined;
    for (const run of this.#runs.values()) {
      if (run.facts.chatId === chatId && !run.terminal) found = run;
    }
    return found;
  }

  /** Registers a new run, first forgetting runs that ended too long ago or too many. */
  add(run: Run): void {
    this.#sweep();
    this.#runs.set(run.facts.id, run);
  }

  #sweep(): void {
    const now = this.#clock();
    for (const [id, run] of this.#runs) {
      if (run.endedAt !== undefined && now - run.endedAt > RUN_RETENTION_MS) this.#runs.delete(id);
    }
    if (this.#runs.size < MAX_RUNS) return;
    for (const [id, run] of this.#runs) {
      if (this.#runs.size < MAX_RUNS) break;
      if (run.terminal) this.#runs.delete(id);
    }
  }
}
