/**
 * The loop's hook seam: points in an agent's life where a host (the plugin host's hook runner,
 * or any library user) may observe the turn, or change what a tool receives, what the model
 * reads and what a request carries. Every member is optional. The loop guards every call
 * ({@link guardHooks}): a hook that throws, rejects or resolves to something it may not return
 * is reported and ignored, so a hook can never break a turn.
 */

/** How a tool call ended, as `postToolCall` sees it. */
export type HookToolStatus = 'ok' | 'error' | 'blocked' | 'cancelled';

/** What `preToolCall` may resolve to: stop the call, replace its arguments, or carry on. */
export type PreToolCallDecision =
  | { readonly block: string }
  | { readonly args: Readonly<Record<string, unknown>> }
  | undefined;

/** One answered model call, as `postLlmCall` sees it. */
export interface HookLlmResponse {
  /** The answer's visible text (empty when the model only called tools). */
  readonly text: string;
  /** The calls it made: name and the arguments as the model sent them (JSON text). */
  readonly toolCalls: readonly { readonly name: string; readonly arguments: string }[];
  readonly model: string;
  readonly finishReason: string;
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number };
}

/** The hooks an agent calls; see the package README for when each fires. */
export interface AgentHooks {
  /** Before any tool runs (registry tools and loop tools alike). */
  preToolCall?(p: {
    readonly toolName: string;
    readonly args: Readonly<Record<string, unknown>>;
    readonly sessionId: string;
  }): Promise<PreToolCallDecision>;
  /** After a tool ran or was blocked; resolves the replacement text, or undefined to keep `result`. */
  postToolCall?(p: {
    readonly toolName: string;
    readonly args: Readonly<Record<string, unknown>>;
    readonly result: string;
    readonly status: HookToolStatus;
    readonly sessionId: string;
  }): Promise<string | undefined>;
  /** Once per turn before the first request; resolves extra context for this turn's request (never stored). */
  preLlmCall?(p: {
    readonly sessionId: string;
    readonly userMessage: string;
  }): Promise<string | undefined>;
  /** After each model call that answered (its usage already recorded). */
  postLlmCall?(p: {
    readonly sessionId: string;
    readonly response: HookLlmResponse;
  }): Promise<void>;
  /** The agent starts its first turn on a session (new or resumed). */
  sessionStart?(p: { readonly sessionId: string; readonly platform: string }): Promise<void>;
  /** The agent is done with a session it started (`resetSession`, `endSession`, close). */
  sessionEnd?(p: { readonly sessionId: string; readonly platform: string }): Promise<void>;
  /** Before a `delegate_task` child starts. */
  subagentStart?(p: { readonly parentSessionId: string; readonly goal: string }): Promise<void>;
  /** After a `delegate_task` child finished, failed (`exitReason: 'failed'`) or was cancelled. */
  subagentStop?(p: {
    readonly parentSessionId: string;
    readonly goal: string;
    readonly exitReason: string;
    readonly summary: string;
  }): Promise<void>;
  /** A command needs a ruling (the guard said `ask`), before anyone rules. */
  preApproval?(p: {
    readonly sessionId: string;
    readonly command: string;
    readonly reason: string;
    readonly patternKeys: readonly string[];
  }): void;
  /** The ruling on a command that needed one. */
  postApproval?(p: {
    readonly sessionId: string;
    readonly command: string;
    readonly decision: 'allow' | 'block';
    readonly reason: string;
    readonly patternKeys: readonly string[];
  }): void;
}

/** The name of one hook. */
export type AgentHookName = keyof AgentHooks;

/** Every hook, in the order the README documents them. */
export const AGENT_HOOK_NAMES: readonly AgentHookName[] = [
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

/** The payload of hook `N`. */
export type AgentHookPayload<N extends AgentHookName> = Parameters<NonNullable<AgentHooks[N]>>[0];

/** Told when a hook throws, rejects or returns something it may not (default: console.warn). */
export type HookErrorReporter = (hook: AgentHookName, error: unknown) => void;

/**
 * `hooks` without `sessionStart` / `sessionEnd`: what a `delegate_task` child gets, since its
 * life is reported by the parent's `subagentStart` / `subagentStop` instead. Methods are bound,
 * so a class instance (the plugin host's runner) works.
 */
export function withoutSessionHooks(hooks: AgentHooks): AgentHooks {
  const out: Partial<Record<AgentHookName, unknown>> = {};
  for (const name of AGENT_HOOK_NAMES) {
    if (name === 'sessionStart' || name === 'sessionEnd') continue;
    const member = hooks[name];
    if (typeof member === 'function') out[name] = member.bind(hooks);
  }
  return out as AgentHooks;
}
