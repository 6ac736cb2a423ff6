/**
 * The learning loop's attachment to an agent built by `createAgent`: after a completed turn, when
 * a review is due (every `memoryReviewEvery` user turns, or a turn with at least
 * `skillReviewMinToolCalls` tool calls), a review agent is forked off the critical path — the
 * turn's answer is already out, the next turn never waits for it, and at most one runs at a time.
 * After a session's first exchange it also asks the `title` slot for the session's title.
 */
import type { ExecutionEnvironment } from '@hermes/environments';
import type { AgentEvent, ChatMessage } from '@hermes/protocol';
import type { SessionStore } from '@hermes/state';
import type { Agent } from '../agent.js';
import type { AuxiliaryModels } from '../auxiliary/auxiliary-models.js';
import type { LoopTool } from '../tools/loop-toolbox.js';
import { type LearningConfig, learningDefaults } from './learning-config.js';
import { runReview } from './review-agent.js';
import type { ReviewReason } from './review-prompt.js';
import { titleSession } from './session-title.js';

/** What `createAgent` gives the learning loop. */
export interface LearningWiringInput {
  /** The agent (set once built). */
  readonly agent: () => Agent | undefined;
  readonly auxiliary: AuxiliaryModels;
  readonly hermesHome: string;
  readonly platform: string;
  readonly sessionStore: SessionStore;
  readonly settings?: Partial<LearningConfig>;
  /** The agent's loop tools; the review gets `memory` and `skill_manage` from them. */
  readonly tools?: readonly LoopTool[];
  /** The agent's execution environment (tool contexts carry it; the review's tools ignore it). */
  readonly environment?: () => ExecutionEnvironment;
  /** Told each background review's one-line report (`runNow` resolves its own line instead). */
  readonly onReview?: (line: string) => void;
  /** Told when a title could not be made (default: ignored — a title is a nicety). */
  readonly onTitleError?: (error: unknown) => void;
}

/** The learning loop of one agent. */
export interface LearningHandle {
  /**
   * Runs a review now (`/learn`) and resolves one line saying what it did; works with
   * `enabled: false` too. While a background review runs, resolves that review's line instead
   * (and the `onReview` listeners are then not told it, so it is shown once).
   */
  runNow(): Promise<string>;
  /** Subscribes to each background review's line; returns the unsubscribe function. */
  onReview(listener: (line: string) => void): () => void;
  /** Whether a review is running now. */
  readonly reviewing: boolean;
  /** Resolves once no review or title request is running (tests, shutdown). */
  idle(): Promise<void>;
  /** Stops listening, stops a running review (what it already wrote stays) and waits for it. */
  close(): Promise<void>;
}

/** Attaches the learning loop to the agent. */
export function wireLearning(input: LearningWiringInput): LearningHandle {
  return new LearningLoop(input, learningDefaults(input.settings)).handle();
}

interface RunningReview {
  readonly done: Promise<string>;
  readonly abort: AbortController;
  /** Set when `/learn` takes over a background review: its line is then the caller's to show. */
  readonly claim: { claimed: boolean };
}

/** Counters, the running review and the title requests of one agent. */
class LearningLoop {
  readonly #listeners = new Set<(line: string) => void>();
  readonly #pending = new Set<Promise<unknown>>();
  readonly #titled = new Set<string>();
  readonly #offs: (() => void)[] = [];
  /** Aborted at close: title requests in flight stop with it. */
  readonly #stop = new AbortController();
  #running: RunningReview | undefined;
  #userTurns = 0;
  #turnToolCalls = 0;
  #closed = false;

  constructor(
    private readonly input: LearningWiringInput,
    private readonly settings: LearningConfig,
  ) {
    if (input.onReview) this.#listeners.add(input.onReview);
    const agent = input.agent();
    if (agent) this.#offs.push(agent.on('event', (event) => this.#observe(event)));
  }

  handle(): LearningHandle {
    const loop = this;
    return {
      runNow: () => loop.#runNow(),
      onReview: (listener) => {
        loop.#listeners.add(listener);
        return () => loop.#listeners.delete(listener);
      },
      get reviewing() {
        return loop.#running !== undefined;
      },
      idle: () => loop.#idle(),
      close: () => loop.#close(),
    };
  }

  #observe(event: AgentEvent): void {
    if (this.#closed) return;
    if (event.type === 'turn_start') {
      this.#userTurns += 1;
      this.#turnToolCalls = 0;
    } else if (event.type === 'tool_call_start') {
      this.#turnToolCalls += 1;
    } else if (event.type === 'turn_end' && event.completed) {
      this.#afterTurn(event.sessionId);
    }
  }

  /** At a completed turn's end: the title (first exchange), then the review when due. */
  #afterTurn(sessionId: string): void {
    const messages = this.input.agent()?.messages ?? [];
    if (this.settings.titles && !this.#titled.has(sessionId)) {
      this.#titled.add(sessionId);
      this.#track(this.#title(sessionId, messages));
    }
    if (!this.settings.enabled) return;
    const reason = this.#dueReason();
    // One review at a time: a due one is skipped while another runs, and tried again next turn.
    if (!reason || this.#running) return;
    this.#userTurns = 0;
    this.#turnToolCalls = 0;
    void this.#start(reason, messages, true);
  }

  #dueReason(): ReviewReason | undefined {
    const { skillReviewMinToolCalls: minTools, memoryReviewEvery: every } = this.settings;
    if (minTools > 0 && this.#turnToolCalls >= minTools) return 'tool_calls';
    if (every > 0 && this.#userTurns >= every) return 'turns';
    return undefined;
  }

  #runNow(): Promise<string> {
    const running = this.#running;
    if (!running) return this.#start('manual', this.input.agent()?.messages ?? [], false);
    // The caller shows the line, so the listeners do not get it a second time.
    running.claim.claimed = true;
    return running.done;
  }

  /**
   * Starts a review on `messages` (a copy taken now); its line goes to every listener. A
   * background review is `deferred` past the ending turn's own promise, so the answer is out first.
   */
  #start(reason: ReviewReason, messages: readonly ChatMessage[], deferred: boolean) {
    const abort = new AbortController();
    const claim = { claimed: !deferred };
    const provider = this.input.auxiliary.for('review');
    const gate = deferred ? new Promise((resolve) => setImmediate(resolve)) : Promise.resolve();
    const done = gate
      .then(() =>
        runReview({
          provider,
          model: provider.model,
          tools: this.input.tools ?? [],
          environment: this.#environment(),
          hermesHome: this.input.hermesHome,
          platform: this.input.platform,
          messages,
          reason,
          settings: this.settings,
          signal: abort.signal,
        }),
      )
      .then((outcome) => {
        // A manual review's line is its caller's to show; a background one has no caller.
        if (!claim.claimed) this.#tell(outcome.line);
        return outcome.line;
      })
      .finally(() => {
        this.#running = undefined;
      });
    this.#running = { done, abort, claim };
    this.#track(done);
    return done;
  }

  #environment(): () => ExecutionEnvironment {
    const given = this.input.environment;
    if (given) return given;
    return () => {
      throw new Error('The review has no execution environment; its tools do not need one.');
    };
  }

  async #title(sessionId: string, messages: readonly ChatMessage[]): Promise<void> {
    try {
      await titleSession({
        store: this.input.sessionStore,
        sessionId,
        provider: this.input.auxiliary.for('title'),
        messages,
        signal: this.#stop.signal,
      });
    } catch (error) {
      this.input.onTitleError?.(error);
    }
  }

  #tell(line: string): void {
    for (const listener of this.#listeners) {
      try {
        listener(line);
      } catch {
        // A listener's failure is its own; the others still hear the line.
      }
    }
  }

  #track(promise: Promise<unknown>): void {
    const settled = promise.catch(() => undefined);
    this.#pending.add(settled);
    void settled.finally(() => this.#pending.delete(settled));
  }

  async #idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }

  async #close(): Promise<void> {
    this.#closed = true;
    for (const off of this.#offs.splice(0)) off();
    this.#running?.abort.abort();
    this.#stop.abort();
    await this.#idle();
  }
}
