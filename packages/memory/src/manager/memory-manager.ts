/** The MemoryManager: drives the one external MemoryProvider through a session. */
import { type ChatMessage, HermesError, type ToolSchema, ToolSchemaSchema } from '@hermes/protocol';
import type { MemoryProvider } from '../memory-provider.js';
import type {
  DelegationEvent,
  MemoryInitContext,
  MemorySessionSwitch,
  MemoryToolCallContext,
  MemoryTurn,
  MemoryTurnStart,
  MemoryWriteEvent,
} from '../memory-types.js';
import { boundedCall } from './bounded-call.js';
import {
  DEFAULT_MEMORY_HOOK_TIMEOUT_MS,
  DEFAULT_PREFETCH_TIMEOUT_MS,
  type MemoryManagerOptions,
  type MemorySessionEndReason,
  type TurnPrefetchResult,
} from './manager-types.js';
import {
  composeUserApiContent,
  countRecalledMemories,
  describeRecall,
  fenceMemoryContext,
  MEMORY_INDICATOR_GLYPH,
} from './memory-context.js';
import { isTrivialPrompt, stripSkillScaffolding } from './trivial-prompt.js';

/** Tool names the built-in store owns; a provider cannot shadow them. */
const RESERVED_TOOL_NAMES = new Set(['memory']);

/**
 * Drives at most one external {@link MemoryProvider} beside the built-in store: recall once per
 * turn (skipping trivial prompts, bounded by an 8 s timeout, skipped while the previous recall is
 * still running), sync after each turn, and the lifecycle hooks. No provider call can break a
 * turn: each is bounded and its errors go to `onProviderError`.
 */
export class MemoryManager {
  private active: MemoryProvider | undefined;
  private readonly prefetchTimeoutMs: number;
  private readonly hookTimeoutMs: number;
  private inFlight: Promise<unknown> | undefined;
  private readonly endedSessions = new Set<string>();

  constructor(private readonly options: MemoryManagerOptions = {}) {
    this.active = options.provider;
    this.prefetchTimeoutMs = options.prefetchTimeoutMs ?? DEFAULT_PREFETCH_TIMEOUT_MS;
    this.hookTimeoutMs = options.hookTimeoutMs ?? DEFAULT_MEMORY_HOOK_TIMEOUT_MS;
  }

  /** The active external provider, if any. */
  get provider(): MemoryProvider | undefined {
    return this.active;
  }

  /**
   * Sets the external provider. @throws `HermesError` `memory.provider_conflict` when one is
   * already set: only one external memory may be active.
   */
  registerProvider(provider: MemoryProvider): void {
    if (this.active) {
      throw new HermesError(
        'memory.provider_conflict',
        `Only one external memory provider can be active; "${this.active.name}" already is, so "${provider.name}" was rejected. Choose one with memory.provider in config.yaml.`,
      );
    }
    this.active = provider;
  }

  /** Starts the provider; if that fails it is switched off for this session. */
  async initialize(context: MemoryInitContext): Promise<boolean> {
    const ok = await this.call('initialize', (p) => p.initialize(context));
    if (!ok.done) this.active = undefined;
    return ok.done;
  }

  /** The provider's static system-prompt block, or ''. */
  systemPromptBlock(): string {
    try {
      return this.active?.systemPromptBlock() ?? '';
    } catch (error) {
      this.report('systemPromptBlock', 'failed', error);
      return '';
    }
  }

  /** A turn begins. */
  async onTurnStart(event: MemoryTurnStart): Promise<void> {
    await this.call('onTurnStart', (p) => p.onTurnStart(event));
  }

  /**
   * Recalls memory for this turn's user message, once per turn, and returns the fenced block
   * and the API sidecar text. Emits `memory_recall` when something was recalled.
   */
  async prefetchForTurn(
    userMessage: string,
    context: { readonly turnId: string },
  ): Promise<TurnPrefetchResult> {
    const provider = this.active;
    if (!provider) return { status: 'skipped', reason: 'no_provider' };
    const query = stripSkillScaffolding(userMessage);
    if (isTrivialPrompt(query)) return { status: 'skipped', reason: 'trivial' };
    if (this.inFlight) return { status: 'skipped', reason: 'busy' };
    const outcome = await boundedCall((signal) => {
      const call = Promise.resolve().then(() => provider.prefetch(query, { signal }));
      const tracked: Promise<unknown> = call
        .catch(() => undefined)
        .finally(() => {
          if (this.inFlight === tracked) this.inFlight = undefined;
        });
      this.inFlight = tracked;
      return call;
    }, this.prefetchTimeoutMs);
    if (outcome.status !== 'ok') {
      this.report(
        'prefetch',
        outcome.status,
        outcome.status === 'failed' ? outcome.error : undefined,
      );
      return { status: outcome.status };
    }
    const recalled = typeof outcome.value === 'string' ? outcome.value.trim() : '';
    if (recalled === '') return { status: 'empty' };
    const fenced = fenceMemoryContext(recalled);
    const count = countRecalledMemories(recalled);
    const label = `${MEMORY_INDICATOR_GLYPH} ${provider.name} — ${describeRecall(count)}`;
    const recall = { provider: provider.name, count, label, chars: fenced.length };
    this.options.onEvent?.({
      type: 'memory_recall',
      turnId: context.turnId,
      provider: provider.name,
      chars: fenced.length,
    });
    return {
      status: 'recalled',
      fenced,
      apiContent: composeUserApiContent(userMessage, fenced),
      recall,
    };
  }

  /** End of a turn: hand the exchange to the provider, then let it warm the next recall. */
  async finishTurn(turn: MemoryTurn): Promise<void> {
    const userMessage = stripSkillScaffolding(turn.userMessage);
    await this.call('syncTurn', (p) => p.syncTurn({ ...turn, userMessage }));
    if (!isTrivialPrompt(userMessage)) {
      await this.call('queuePrefetch', (p) => p.queuePrefetch(userMessage));
    }
  }

  /** Before compression: what the provider wants carried into the summary ('' if nothing). */
  async onPreCompress(messages: readonly ChatMessage[]): Promise<string> {
    const result = await this.call('onPreCompress', (p) => p.onPreCompress(messages));
    return result.done && typeof result.value === 'string' ? result.value : '';
  }

  /** Mirrors a write to the built-in store. */
  async onMemoryWrite(event: MemoryWriteEvent): Promise<void> {
    await this.call('onMemoryWrite', (p) => p.onMemoryWrite(event));
  }

  /** A subagent finished a delegated task. */
  async onDelegation(event: DelegationEvent): Promise<void> {
    await this.call('onDelegation', (p) => p.onDelegation(event));
  }

  /** The session id changed mid-process (not an end). */
  async onSessionSwitch(event: MemorySessionSwitch): Promise<void> {
    await this.call('onSessionSwitch', (p) => p.onSessionSwitch(event));
  }

  /**
   * A session really ended (`reason` says how). Delivered at most once per session id, so a
   * caller on two exit paths cannot make the provider extract twice.
   */
  async endSession(
    sessionId: string,
    messages: readonly ChatMessage[],
    _reason: MemorySessionEndReason,
  ): Promise<void> {
    if (this.endedSessions.has(sessionId)) return;
    this.endedSessions.add(sessionId);
    await this.call('onSessionEnd', (p) => p.onSessionEnd(messages));
  }

  /** The provider's tools, valid ones only, never shadowing the built-in `memory` tool. */
  getToolSchemas(): readonly ToolSchema[] {
    let schemas: readonly ToolSchema[];
    try {
      schemas = this.active?.getToolSchemas() ?? [];
    } catch (error) {
      this.report('getToolSchemas', 'failed', error);
      return [];
    }
    return schemas.filter(
      (schema) =>
        ToolSchemaSchema.safeParse(schema).success &&
        !RESERVED_TOOL_NAMES.has(schema.function.name),
    );
  }

  /** Runs a provider tool; `undefined` when the tool is not the provider's. */
  async handleToolCall(
    name: string,
    args: Readonly<Record<string, unknown>>,
    context: MemoryToolCallContext = {},
  ): Promise<string | undefined> {
    if (!this.getToolSchemas().some((schema) => schema.function.name === name)) return undefined;
    const result = await this.call('handleToolCall', (p) => p.handleToolCall(name, args, context));
    if (result.done) return result.value ?? undefined;
    return JSON.stringify({
      success: false,
      error: `The ${name} tool failed or timed out; try again later.`,
    });
  }

  /** Flushes and disconnects the provider. */
  async shutdown(): Promise<void> {
    await this.call('shutdown', (p) => p.shutdown());
  }

  private async call<T>(
    hook: string,
    fn: (provider: MemoryProvider) => Promise<T>,
  ): Promise<{ done: true; value: T } | { done: false }> {
    const provider = this.active;
    if (!provider) return { done: false };
    const outcome = await boundedCall(() => fn(provider), this.hookTimeoutMs);
    if (outcome.status === 'ok') return { done: true, value: outcome.value };
    this.report(hook, outcome.status, outcome.status === 'failed' ? outcome.error : undefined);
    return { done: false };
  }

  private report(hook: string, outcome: 'timeout' | 'failed', error?: unknown): void {
    const provider = this.active?.name ?? 'unknown';
    try {
      this.options.onProviderError?.({
        provider,
        hook,
        outcome,
        ...(error === undefined ? {} : { error }),
      });
    } catch {
      // A diagnostics callback must not break the turn either.
    }
  }
}
