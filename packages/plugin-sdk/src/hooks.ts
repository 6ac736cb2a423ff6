/**
 * The hooks a plugin can register: their names, the exact payload each receives and what each
 * may return. The host runs hooks in registration order with a per-hook timeout; a hook that
 * throws, rejects, times out or returns something it may not is logged and skipped, so a hook
 * can never break a turn.
 */

/** How a tool call ended, as a `postToolCall` hook sees it. */
export type PluginToolCallStatus = 'ok' | 'error' | 'blocked' | 'cancelled';

/** One tool call the model asked for, as `postLlmCall` sees it. */
export interface PluginLlmToolCall {
  readonly name: string;
  /** The arguments as the model sent them (a JSON text). */
  readonly arguments: string;
}

/** What a model call answered, as `postLlmCall` sees it. */
export interface PluginLlmResponse {
  /** The answer's text (empty when the model only called tools). */
  readonly text: string;
  readonly toolCalls: readonly PluginLlmToolCall[];
  /** The model that answered. */
  readonly model: string;
  /** `stop`, `tool_calls`, `length`, … */
  readonly finishReason: string;
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number };
}

/** The payload each hook receives. */
export interface PluginHookPayloads {
  /** Before a tool runs (every tool, the agent's own included). */
  readonly preToolCall: {
    readonly toolName: string;
    /** The arguments the model sent, parsed from JSON. */
    readonly args: Readonly<Record<string, unknown>>;
    readonly sessionId: string;
  };
  /** After a tool ran (or was blocked), before the model reads the result. */
  readonly postToolCall: {
    readonly toolName: string;
    readonly args: Readonly<Record<string, unknown>>;
    /** The exact text the model will read unless a hook replaces it. */
    readonly result: string;
    readonly status: PluginToolCallStatus;
    readonly sessionId: string;
  };
  /** Once per turn, before the first model request. */
  readonly preLlmCall: { readonly sessionId: string; readonly userMessage: string };
  /** After every model call that answered. */
  readonly postLlmCall: { readonly sessionId: string; readonly response: PluginLlmResponse };
  /** When an agent starts work on a session (its first turn, new or resumed). */
  readonly sessionStart: { readonly sessionId: string; readonly platform: string };
  /** When an agent is done with a session: closed, `/new`, reset, evicted, CLI exit. */
  readonly sessionEnd: { readonly sessionId: string; readonly platform: string };
  /** Before a `delegate_task` child starts. */
  readonly subagentStart: { readonly parentSessionId: string; readonly goal: string };
  /** After a `delegate_task` child finished, failed or was cancelled. */
  readonly subagentStop: {
    readonly parentSessionId: string;
    readonly goal: string;
    /** Why the child's turn ended (`completed`, `interrupted_by_user`, …, or `failed`). */
    readonly exitReason: string;
    /** The child's answer (or error), as the parent will read it. */
    readonly summary: string;
  };
  /** A command needs a ruling (the guard said "ask"); before anyone is asked. */
  readonly preApproval: {
    readonly sessionId: string;
    readonly command: string;
    readonly reason: string;
    readonly patternKeys: readonly string[];
  };
  /** The ruling on a command that needed one. */
  readonly postApproval: {
    readonly sessionId: string;
    readonly command: string;
    readonly decision: 'allow' | 'block';
    readonly reason: string;
    readonly patternKeys: readonly string[];
  };
}

/** The points in the agent's life a plugin can hook into. */
export type PluginHookName = keyof PluginHookPayloads;

/** Every hook name, in the order the SDK README documents them. */
export const PLUGIN_HOOK_NAMES: readonly PluginHookName[] = [
  'preToolCall',
  'postToolCall',
  'preLlmCall',
  'postLlmCall',
  'sessionStart',
  'sessionEnd',
  'subagentStart',
  'subagentStop',
  'preApproval',
  'postApproval',
];

/**
 * What each hook may return; `undefined` (or nothing) means "carry on". Hooks not listed with a
 * result only observe: whatever they return is ignored.
 *
 * - `preToolCall`: `{ block: reason }` stops the call and the model reads `reason` as the tool's
 *   result; `{ args }` replaces the arguments (validated again, as if the model sent them). The
 *   first block wins; rewrites chain in registration order.
 * - `postToolCall`: `{ result }` replaces the text the model reads; replacements chain.
 * - `preLlmCall`: `{ context }` is added to this turn's request (after the user's message), never
 *   stored as a user message; the contexts of every hook are joined.
 */
export interface PluginHookResults {
  readonly preToolCall:
    | { readonly block: string }
    | { readonly args: Readonly<Record<string, unknown>> }
    | undefined;
  readonly postToolCall: { readonly result: string } | undefined;
  readonly preLlmCall: { readonly context: string } | undefined;
  readonly postLlmCall: undefined;
  readonly sessionStart: undefined;
  readonly sessionEnd: undefined;
  readonly subagentStart: undefined;
  readonly subagentStop: undefined;
  readonly preApproval: undefined;
  readonly postApproval: undefined;
}

/** The payload of hook `N`. */
export type PluginHookPayload<N extends PluginHookName = PluginHookName> = PluginHookPayloads[N];

/** A handler of hook `N`: sync or async, returning that hook's result or nothing. */
export type PluginHookHandler<N extends PluginHookName = PluginHookName> = (
  payload: PluginHookPayloads[N],
  // biome-ignore lint/suspicious/noConfusingVoidType: observing hooks return nothing; `void` lets them be plain functions.
) => PluginHookResults[N] | void | Promise<PluginHookResults[N] | void>;

/** Options of one registered hook. */
export interface PluginHookOptions {
  /**
   * How long the host waits for this hook before skipping it (logged). Default: the host's
   * `plugins.hook_timeout_ms`, 5,000 ms.
   */
  readonly timeoutMs?: number;
}
