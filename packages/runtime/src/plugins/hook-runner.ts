/**
 * Runs plugins' hooks for the agent loop. It satisfies `@hermes/loop`'s `AgentHooks`: hooks run
 * in registration order, each bounded by its own timeout (or `plugins.hook_timeout_ms`); one
 * that throws, rejects, times out or returns what it may not is logged (once per hook and kind
 * of failure) and skipped, so a hook can never break a turn.
 */
import type { PluginHookName, PluginHookPayloads } from '@hermes/plugin-sdk';
import { bounded, messageOf } from './bounded.js';
import { type PluginHostLogger, SILENT_HOST_LOGGER } from './host-logger.js';
import { DEFAULT_HOOK_TIMEOUT_MS } from './plugins-section.js';
import type { RegisteredHook } from './registrations.js';

type Args = Readonly<Record<string, unknown>>;
/** What `preToolCall` resolves: a block, rewritten arguments, or nothing to change. */
export type PreToolCallOutcome = { readonly block: string } | { readonly args: Args } | undefined;

/** Options of a {@link HookRunner}. */
export interface HookRunnerOptions {
  /** For hooks registered without their own timeout. Default 5,000 ms. */
  readonly defaultTimeoutMs?: number;
  readonly logger?: PluginHostLogger;
}

type Failure = 'threw' | 'timed_out' | 'invalid_result';
const NOTHING = Symbol('nothing');

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The plugins' hooks, in registration order. */
export class HookRunner {
  readonly #byName = new Map<PluginHookName, RegisteredHook[]>();
  readonly #timeoutMs: number;
  readonly #logger: PluginHostLogger;
  readonly #reported = new WeakMap<RegisteredHook, Set<Failure>>();

  constructor(hooks: readonly RegisteredHook[] = [], options: HookRunnerOptions = {}) {
    for (const hook of hooks) {
      const list = this.#byName.get(hook.name) ?? [];
      list.push(hook);
      this.#byName.set(hook.name, list);
    }
    this.#timeoutMs = options.defaultTimeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
    this.#logger = options.logger ?? SILENT_HOST_LOGGER;
    // Bound, so the loop may pass the methods around on their own.
    this.preToolCall = this.preToolCall.bind(this);
    this.postToolCall = this.postToolCall.bind(this);
    this.preLlmCall = this.preLlmCall.bind(this);
    this.postLlmCall = this.postLlmCall.bind(this);
    this.sessionStart = this.sessionStart.bind(this);
    this.sessionEnd = this.sessionEnd.bind(this);
    this.subagentStart = this.subagentStart.bind(this);
    this.subagentStop = this.subagentStop.bind(this);
    this.preApproval = this.preApproval.bind(this);
    this.postApproval = this.postApproval.bind(this);
  }

  /** True when no plugin registered any hook: callers may skip the calls. */
  get isEmpty(): boolean {
    return this.#byName.size === 0;
  }

  /** True when some plugin registered hook `name`. */
  has(name: PluginHookName): boolean {
    return this.#byName.has(name);
  }

  #report(hook: RegisteredHook, failure: Failure, detail: string): void {
    const seen = this.#reported.get(hook) ?? new Set<Failure>();
    this.#reported.set(hook, seen);
    if (seen.has(failure)) return;
    seen.add(failure);
    this.#logger.warn(`[plugin ${hook.plugin}] ${hook.name} hook ${detail}; skipped`);
  }

  /** Runs one hook; its result, or NOTHING when it failed (already reported). */
  async #call(hook: RegisteredHook, payload: unknown): Promise<unknown> {
    const timeoutMs = hook.timeoutMs ?? this.#timeoutMs;
    const handler = hook.handler as (p: unknown) => unknown;
    const outcome = await bounded(async () => handler(payload), timeoutMs);
    if (outcome.ok) return outcome.value;
    if (outcome.timedOut) this.#report(hook, 'timed_out', `timed out after ${timeoutMs} ms`);
    else this.#report(hook, 'threw', `threw: ${messageOf(outcome.error)}`);
    return NOTHING;
  }

  #invalid(hook: RegisteredHook, expected: string): void {
    this.#report(hook, 'invalid_result', `returned an invalid result (expected ${expected})`);
  }

  /** Runs every hook of `name` in order, ignoring what they return. */
  async #observe<N extends PluginHookName>(name: N, payload: PluginHookPayloads[N]): Promise<void> {
    const hooks = this.#byName.get(name);
    if (!hooks) return;
    for (const hook of hooks) await this.#call(hook, payload);
  }

  /**
   * Before a tool runs. The first `{ block: reason }` (a non-empty string) wins and stops the
   * rest; `{ args }` (an object) replaces the arguments the later hooks and the tool see.
   * Resolves `{ block }`, `{ args }` when any hook rewrote them, or undefined.
   */
  async preToolCall(p: PluginHookPayloads['preToolCall']): Promise<PreToolCallOutcome> {
    const hooks = this.#byName.get('preToolCall');
    if (!hooks) return undefined;
    let args = p.args;
    let rewritten = false;
    for (const hook of hooks) {
      const result = await this.#call(hook, { ...p, args });
      if (result === NOTHING || result === undefined || result === null) continue;
      if (isRecord(result) && typeof result.block === 'string' && result.block.trim() !== '') {
        return { block: result.block };
      }
      if (isRecord(result) && !('block' in result) && isRecord(result.args)) {
        args = result.args;
        rewritten = true;
        continue;
      }
      this.#invalid(hook, '{ block: reason } or { args: object }');
    }
    return rewritten ? { args } : undefined;
  }

  /**
   * After a tool ran or was blocked. Each `{ result: text }` replaces the text the later hooks
   * and the model see; resolves the final replacement, or undefined to keep `p.result`.
   */
  async postToolCall(p: PluginHookPayloads['postToolCall']): Promise<string | undefined> {
    const hooks = this.#byName.get('postToolCall');
    if (!hooks) return undefined;
    let text: string | undefined;
    for (const hook of hooks) {
      const result = await this.#call(hook, { ...p, result: text ?? p.result });
      if (result === NOTHING || result === undefined || result === null) continue;
      if (isRecord(result) && typeof result.result === 'string') text = result.result;
      else this.#invalid(hook, '{ result: text }');
    }
    return text;
  }

  /**
   * Once per turn, before the first request: the non-empty `{ context }` of every hook, joined
   * with a blank line, or undefined when none gave any.
   */
  async preLlmCall(p: PluginHookPayloads['preLlmCall']): Promise<string | undefined> {
    const hooks = this.#byName.get('preLlmCall');
    if (!hooks) return undefined;
    const contexts: string[] = [];
    for (const hook of hooks) {
      const result = await this.#call(hook, p);
      if (result === NOTHING || result === undefined || result === null) continue;
      if (isRecord(result) && typeof result.context === 'string') {
        if (result.context.trim() !== '') contexts.push(result.context);
      } else {
        this.#invalid(hook, '{ context: text }');
      }
    }
    return contexts.length > 0 ? contexts.join('\n\n') : undefined;
  }

  /** After every model call that answered (observe only). */
  postLlmCall(p: PluginHookPayloads['postLlmCall']): Promise<void> {
    return this.#observe('postLlmCall', p);
  }

  /** When an agent starts work on a session (observe only). */
  sessionStart(p: PluginHookPayloads['sessionStart']): Promise<void> {
    return this.#observe('sessionStart', p);
  }

  /** When an agent is done with a session (observe only). */
  sessionEnd(p: PluginHookPayloads['sessionEnd']): Promise<void> {
    return this.#observe('sessionEnd', p);
  }

  /** Before a `delegate_task` child starts (observe only). */
  subagentStart(p: PluginHookPayloads['subagentStart']): Promise<void> {
    return this.#observe('subagentStart', p);
  }

  /** After a `delegate_task` child ended (observe only). */
  subagentStop(p: PluginHookPayloads['subagentStop']): Promise<void> {
    return this.#observe('subagentStop', p);
  }

  /**
   * A command needs a ruling (observe only). Not awaited by the caller: the hooks run in the
   * background, bounded like the others, and never delay the question.
   */
  preApproval(p: PluginHookPayloads['preApproval']): void {
    void this.#observe('preApproval', p);
  }

  /** The ruling on a command that needed one (observe only, in the background). */
  postApproval(p: PluginHookPayloads['postApproval']): void {
    void this.#observe('postApproval', p);
  }
}
