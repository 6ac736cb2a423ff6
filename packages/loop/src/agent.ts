/**
 * The Agent: one conversation with a model that can act through tools. It owns the session's
 * message list and cached system prompt between turns; each turn is run by `runTurn`.
 */
import { randomUUID } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AgentEvent, AgentEventType, ChatMessage } from '@hermes/protocol';
import { HermesError } from '@hermes/protocol';
import type { ToolContext } from '@hermes/tools';
import type { AgentOptions, RunOptions } from './agent-options.js';
import type { CompressionReport } from './compression/compression-gate.js';
import { turnGate } from './compression/turn-gate.js';
import { childAnswer, type DelegatedTask } from './delegation/delegate-tool.js';
import {
  CHILD_BLOCKED_TOOLS,
  DELEGATION_DEFAULTS,
  type DelegationOptions,
} from './delegation/delegation-options.js';
import { AgentEventBus, type AgentEventListener } from './events/event-bus.js';
import { EventQueue } from './events/event-queue.js';
import { withoutSessionHooks } from './hooks/agent-hooks.js';
import { guardHooks } from './hooks/guard-hooks.js';
import { SessionLifecycle } from './hooks/session-lifecycle.js';
import { observeSubagent } from './hooks/subagent-hooks.js';
import { ModelRoute, type ModelTarget, targetLabel } from './model/model-route.js';
import { SessionWriter } from './persist/session-writer.js';
import type { PromptHolder } from './prompt/prompt-cache.js';
import type { PromptParts } from './prompt/system-prompt.js';
import { agentToolbox } from './tools/agent-toolbox.js';
import { LoopToolbox, NarrowedToolbox } from './tools/loop-toolbox.js';
import type { AgentRuntime } from './turn/agent-runtime.js';
import { type ContextStatus, contextStatusOf } from './turn/context-status.js';
import { runTurn } from './turn/run-turn.js';
import { environmentOnce, optionalRuntimeParts } from './turn/runtime-parts.js';
import { TurnControl } from './turn/turn-control.js';
import type { TurnResult } from './turn/turn-result.js';
import { estimateTokens, TurnState } from './turn/turn-state.js';

/** Default model calls per turn. */
export const DEFAULT_MAX_ITERATIONS = 90;

/** An agent bound to one session. Not reentrant: one turn at a time. */
export class Agent {
  readonly #runtime: AgentRuntime;
  readonly #options: AgentOptions;
  readonly #prompt: PromptHolder = { text: undefined };
  #messages: ChatMessage[] = [];
  #writer: SessionWriter | undefined;
  #sessionId: string | undefined;
  #running = false;
  readonly #children = new Set<Agent>();
  readonly #lifecycle: SessionLifecycle;

  constructor(options: AgentOptions) {
    this.#options = options;
    this.#sessionId = options.sessionId;
    const primary: ModelTarget = {
      provider: options.provider,
      model: options.model,
      ...(options.providerName ? { label: options.providerName } : {}),
    };
    const environment = environmentOnce(options.environment);
    const hooks = options.hooks ? guardHooks(options.hooks, options.onHookError) : undefined;
    this.#runtime = {
      route: new ModelRoute(primary, options.fallback),
      store: options.sessionStore,
      engine: options.contextEngine,
      toolbox: agentToolbox(options, hooks, (task, ctx) => this.#observedChild(task, ctx)),
      get environment() {
        return environment();
      },
      events: new AgentEventBus(options.onListenerError),
      control: new TurnControl(),
      platform: options.platform ?? 'cli',
      hermesHome: options.hermesHome ?? process.env.HERMES_HOME ?? join(homedir(), '.hermes'),
      maxIterations: options.maxIterations ?? DEFAULT_MAX_ITERATIONS,
      maxDelegateCalls: options.maxDelegateCalls ?? 3,
      approvalSurface:
        options.approvalSurface ?? (options.clarify ? 'interactive' : 'single_query'),
      autoCompression: options.autoCompression ?? true,
      ...(hooks ? { hooks } : {}),
      ...optionalRuntimeParts(options),
    };
    this.#lifecycle = new SessionLifecycle(hooks, this.#runtime.platform);
  }

  /** The current session id (undefined before the first turn of a new session). */
  get sessionId(): string | undefined {
    return this.#writer?.sessionId ?? this.#sessionId;
  }

  /** The active conversation (system prompt excluded). A copy. */
  get messages(): readonly ChatMessage[] {
    return [...this.#messages];
  }

  /** The model answering at the start of each turn. */
  get model(): string {
    return this.#runtime.route.current.model;
  }

  /** Child agents running `delegate_task` work right now (each can be steered). */
  get activeChildren(): readonly Agent[] {
    return [...this.#children];
  }

  /** Whether a turn is running. */
  get running(): boolean {
    return this.#running;
  }

  /**
   * Reports that the provider is retrying a failed model call on its own (the providers built by
   * `createProvider` do, with backoff): emits `model_retry` for the running turn, so a caller
   * can say so instead of going quiet for the whole wait. Ignored between turns.
   */
  reportModelRetry(retry: {
    readonly attempt: number;
    readonly delayMs: number;
    readonly code: string;
    readonly message: string;
  }): void {
    const turn = this.#runtime.currentTurn;
    if (turn === undefined) return;
    this.#runtime.events.emit({ type: 'model_retry', turnId: turn.turnId, ...retry });
  }

  /**
   * Emits the smart-approval judge's ruling on a flagged command as an `approval_resolution`
   * event (`decidedBy: 'smart'`), so hosts show and log it. Ignored outside a turn.
   */
  reportSmartRuling(ruling: {
    readonly command: string;
    readonly allowed: boolean;
    readonly reason: string;
  }): void {
    const turn = this.#runtime.currentTurn;
    if (turn === undefined) return;
    this.#runtime.events.emit({
      type: 'approval_resolution',
      turnId: turn.turnId,
      requestId: randomUUID(),
      decision: ruling.allowed ? 'once' : 'deny',
      decidedBy: 'smart',
      command: ruling.command,
      reason: ruling.reason,
    });
  }

  /** Subscribes to one event type, or to all with `'event'`; returns the unsubscribe function. */
  on<T extends AgentEventType | 'event'>(type: T, listener: AgentEventListener<T>): () => void {
    return this.#runtime.events.on(type, listener);
  }

  /** Runs a turn and returns only the answer text. */
  async chat(text: string): Promise<string> {
    return (await this.runConversation(text)).finalResponse;
  }

  /** Runs one turn: the user's message in, the final answer and everything that happened out. */
  async runConversation(text: string, options: RunOptions = {}): Promise<TurnResult> {
    if (this.#running) {
      throw new HermesError(
        'loop.turn_in_progress',
        'A turn is already running on this agent; wait for it, or use steer()/redirect()/interrupt().',
      );
    }
    this.#running = true;
    const { control } = this.#runtime;
    control.beginTurn();
    const stopOnAbort = () => control.interrupt();
    options.signal?.addEventListener('abort', stopOnAbort, { once: true });
    if (options.signal?.aborted) control.interrupt();
    try {
      const writer = await this.#ensureSession(options.conversationHistory);
      await this.#lifecycle.enter(writer.sessionId);
      this.#runtime.route.reset();
      const turn = { id: '' };
      const gate = turnGate(this.#runtime, writer, turn);
      const state = new TurnState(this.#runtime, this.#messages, writer, gate, text);
      turn.id = state.turnId;
      this.#runtime.currentTurn = state;
      this.#runtime.onTurnStart?.();
      return await runTurn(state, {
        text,
        persistUserMessage: options.persistUserMessage ?? true,
        prompt: this.#prompt,
        promptParts: () => this.#promptParts(),
        promptRuntime: this.#promptRuntime(),
      });
    } finally {
      options.signal?.removeEventListener('abort', stopOnAbort);
      control.endTurn();
      this.#runtime.currentTurn = undefined;
      this.#running = false;
    }
  }

  /**
   * Runs a turn and yields its events as they happen; the generator's return value is the
   * result. Breaking out of the loop early does not stop the turn (call `interrupt()`).
   */
  async *stream(text: string, options: RunOptions = {}): AsyncGenerator<AgentEvent, TurnResult> {
    const queue = new EventQueue();
    const off = this.on('event', (event) => queue.push(event));
    const turn = this.runConversation(text, options).finally(() => {
      off();
      queue.close();
    });
    for await (const event of queue) yield event;
    return turn;
  }

  /** Stops the running turn (model call aborted, tools killed). No-op between turns. */
  interrupt(): void {
    this.#runtime.control.interrupt();
  }

  /** Adds a note the model sees at its next request, without stopping it. */
  steer(text: string): boolean {
    return this.#runtime.control.steer(text);
  }

  /** Corrects the model mid-answer; false when no model call is in flight. */
  redirect(text: string): boolean {
    return this.#runtime.control.redirect(text);
  }

  /**
   * Compresses the conversation now (`/compress [topic]`), between turns: the context engine
   * summarizes with `focusTopic` in mind and the old rows are archived. Resolves to the report;
   * a session with no messages yet reports `changed: false`.
   */
  async compress(focusTopic?: string): Promise<CompressionReport> {
    if (this.#running) {
      throw new HermesError('loop.turn_in_progress', 'Compress between turns, not while one runs.');
    }
    const writer = await this.#ensureSession(undefined);
    const gate = turnGate(this.#runtime, writer, { id: '' });
    return gate.compress(this.#messages, 'manual', {
      tokens: estimateTokens(this.#messages),
      force: true,
      ...(focusTopic?.trim() ? { focusTopic: focusTopic.trim() } : {}),
    });
  }

  /** The conversation's size (hygiene before a turn); loads a stored session, creates none. */
  async contextStatus(): Promise<ContextStatus> {
    const id = this.#writer ? undefined : this.#sessionId;
    if (id && (await this.#runtime.store.getSession(id))) await this.#ensureSession(undefined);
    return contextStatusOf(this.#messages, this.#runtime.engine);
  }

  /**
   * `/undo`: takes the last user message and everything after it out of the conversation, in
   * memory and in the store, where those rows are archived (never deleted: search and
   * `getMessages(…, { includeInactive })` still find them), so a resumed session does not bring
   * them back. Resolves to the removed user message, or `undefined` when there is none. Between
   * turns only.
   */
  async undo(): Promise<ChatMessage | undefined> {
    if (this.#running) {
      throw new HermesError('loop.turn_in_progress', 'Undo between turns, not while one runs.');
    }
    if (this.#sessionId === undefined && this.#writer === undefined) return undefined;
    const writer = await this.#ensureSession(undefined);
    const index = this.#messages.findLastIndex((message) => message.role === 'user');
    if (index < 0) return undefined;
    const removed = this.#messages[index];
    const kept = this.#messages.slice(0, index);
    await writer.compact(kept);
    this.#messages = kept;
    return removed;
  }

  /**
   * Starts a new session at the next turn (`/new`). The state is reset at once; the promise
   * settles when the `sessionEnd` hook of the session the agent was on has run (never rejects).
   */
  resetSession(): Promise<void> {
    this.#messages = [];
    this.#writer = undefined;
    this.#sessionId = undefined;
    this.#prompt.text = undefined;
    return this.#lifecycle.leave();
  }

  /**
   * Says the agent is done with its session (a host closing it, evicting it, exiting): runs the
   * `sessionEnd` hook once for a session whose start was reported, and nothing otherwise. The
   * conversation stays; a later turn on it reports a new `sessionStart`. Never rejects.
   */
  endSession(): Promise<void> {
    return this.#lifecycle.leave();
  }

  /** Switches the primary model from the next turn on; the prompt is rebuilt. */
  switchModel(model: string, provider = this.#options.provider, label?: string): void {
    this.#runtime.route = this.#runtime.route.withPrimary({
      provider,
      model,
      ...(label ? { label } : {}),
    });
    this.#prompt.text = undefined;
  }

  #observedChild(task: DelegatedTask, ctx: ToolContext): Promise<TurnResult> {
    const maxChars =
      this.#options.delegation?.maxSummaryChars ?? DELEGATION_DEFAULTS.maxSummaryChars;
    return observeSubagent(
      this.#runtime.hooks,
      { parentSessionId: ctx.sessionId, goal: task.goal },
      () => this.#spawnChild(task, ctx),
      (result) => childAnswer(result, maxChars),
    );
  }

  async #spawnChild(task: DelegatedTask, ctx: ToolContext): Promise<TurnResult> {
    const options = this.#options;
    const delegation = options.delegation as DelegationOptions;
    const session = await this.#runtime.store.createSession({
      source: this.#runtime.platform,
      title: `delegated: ${task.goal.slice(0, 60)}`,
      model: this.model,
      ...(this.sessionId ? { parentSessionId: this.sessionId } : {}),
    });
    const base = options.loopTools?.length
      ? new LoopToolbox(options.tools, options.loopTools)
      : options.tools;
    const { delegation: _d, memory: _m, clarify: _c, loopTools: _l, hooks, ...inherited } = options;
    const child = new Agent({
      ...inherited,
      // A child's life is reported by subagentStart/subagentStop, not as a session of its own.
      ...(hooks ? { hooks: withoutSessionHooks(hooks) } : {}),
      // The parent's own environment (built by now: delegate_task is a tool call).
      environment: this.#runtime.environment,
      model: this.model,
      tools: new NarrowedToolbox(base, CHILD_BLOCKED_TOOLS),
      contextEngine: delegation.createContextEngine(),
      sessionId: session.id,
      maxIterations: delegation.maxIterations ?? DELEGATION_DEFAULTS.maxIterations,
      approvalSurface: delegation.allowDangerous ? this.#runtime.approvalSurface : 'subagent',
    });
    this.#children.add(child);
    try {
      const prompt = task.context ? `${task.goal}\n\nContext:\n${task.context}` : task.goal;
      const result = await child.runConversation(prompt, { signal: ctx.signal });
      const turn = this.#runtime.currentTurn;
      if (turn) {
        turn.addUsage(result.usage);
        turn.costUsd += result.costUsd;
      }
      return result;
    } finally {
      this.#children.delete(child);
    }
  }

  async #ensureSession(history: readonly ChatMessage[] | undefined): Promise<SessionWriter> {
    const store = this.#runtime.store;
    if (!this.#writer) {
      const existing = this.#sessionId ? await store.getSession(this.#sessionId) : undefined;
      const session =
        existing ??
        (await store.createSession({
          ...(this.#sessionId ? { id: this.#sessionId } : {}),
          source: this.#runtime.platform,
          model: this.model,
          provider: targetLabel(this.#runtime.route.current),
        }));
      this.#writer = new SessionWriter(store, session.id);
      if (existing) {
        this.#messages = (await store.getMessages(session.id)).map((row) => row.message);
        this.#writer.markPersisted(this.#messages);
      }
    }
    if (history) {
      this.#messages = [...history];
      this.#writer.markPersisted(this.#messages);
    }
    return this.#writer;
  }

  #promptRuntime(): PromptParts['runtime'] {
    const target = this.#runtime.route.current;
    return {
      model: target.model,
      provider: targetLabel(target),
      cwd: this.#options.cwd ?? process.cwd(),
      platform: this.#runtime.platform,
    };
  }

  async #promptParts(): Promise<PromptParts> {
    const { memory, skillsIndex, promptBlocks, hermesHome } = this.#runtime;
    return {
      runtime: this.#promptRuntime(),
      hermesHome,
      ...(memory?.systemPromptBlock ? { memoryBlock: await memory.systemPromptBlock() } : {}),
      ...(skillsIndex ? { skillsIndex: await skillsIndex() } : {}),
      ...(promptBlocks ? { extraBlocks: promptBlocks() } : {}),
    };
  }
}
