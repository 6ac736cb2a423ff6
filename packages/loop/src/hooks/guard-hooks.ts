/**
 * Containment for {@link AgentHooks}: every member wrapped so a throw or rejection is reported
 * and swallowed, and a result of the wrong shape is reported and ignored. The loop calls hooks
 * only through this, so a broken hook costs its own effect and nothing else. (The plugin host's
 * runner also bounds each hook's time; the loop just awaits what it is given.)
 */
import type {
  AgentHookName,
  AgentHookPayload,
  AgentHooks,
  HookErrorReporter,
  PreToolCallDecision,
} from './agent-hooks.js';

/** The hooks with every member present and none able to throw. */
export interface GuardedHooks {
  /** The hooks as given (for child agents, which guard them again themselves). */
  readonly raw: AgentHooks;
  /** Whether `name` is implemented (lets callers skip building payloads nobody reads). */
  has(name: AgentHookName): boolean;
  preToolCall(p: AgentHookPayload<'preToolCall'>): Promise<PreToolCallDecision>;
  postToolCall(p: AgentHookPayload<'postToolCall'>): Promise<string | undefined>;
  preLlmCall(p: AgentHookPayload<'preLlmCall'>): Promise<string | undefined>;
  postLlmCall(p: AgentHookPayload<'postLlmCall'>): Promise<void>;
  sessionStart(p: AgentHookPayload<'sessionStart'>): Promise<void>;
  sessionEnd(p: AgentHookPayload<'sessionEnd'>): Promise<void>;
  subagentStart(p: AgentHookPayload<'subagentStart'>): Promise<void>;
  subagentStop(p: AgentHookPayload<'subagentStop'>): Promise<void>;
  preApproval(p: AgentHookPayload<'preApproval'>): void;
  postApproval(p: AgentHookPayload<'postApproval'>): void;
}

/** Marks a result of the wrong shape. */
const INVALID = Symbol('invalid hook result');
type Reader<R> = (value: unknown) => R | typeof INVALID;

const defaultReporter: HookErrorReporter = (hook, error) =>
  console.warn(`[hermes] the ${hook} hook failed and was skipped:`, error);

/** Wraps `hooks`; failures go to `report` (default: `console.warn`). */
export function guardHooks(
  hooks: AgentHooks,
  report: HookErrorReporter = defaultReporter,
): GuardedHooks {
  const fail = (hook: AgentHookName, error: unknown): void => {
    try {
      report(hook, error);
    } catch {
      // The reporter itself failed; nothing more can be done without risking the turn.
    }
  };
  const call = async <R>(hook: AgentHookName, payload: unknown, read: Reader<R>) => {
    const member = hooks[hook] as ((p: unknown) => unknown) | undefined;
    if (typeof member !== 'function') return undefined;
    let value: unknown;
    try {
      value = await member.call(hooks, payload);
    } catch (error) {
      fail(hook, error);
      return undefined;
    }
    if (value === undefined || value === null) return undefined;
    const result = read(value);
    if (result !== INVALID) return result;
    fail(
      hook,
      new Error(`the ${hook} hook resolved to ${preview(value)}, which it may not; ignored`),
    );
    return undefined;
  };
  const observe = (hook: AgentHookName) => async (payload: unknown) => {
    await call(hook, payload, () => undefined);
  };
  const observeSync = (hook: AgentHookName) => (payload: unknown) => {
    const member = hooks[hook] as ((p: unknown) => unknown) | undefined;
    if (typeof member !== 'function') return;
    try {
      const value = member.call(hooks, payload);
      // An async implementation must not leave an unhandled rejection behind.
      if (isThenable(value)) value.then(undefined, (error: unknown) => fail(hook, error));
    } catch (error) {
      fail(hook, error);
    }
  };
  return {
    raw: hooks,
    has: (name) => typeof hooks[name] === 'function',
    preToolCall: (p) => call('preToolCall', p, readDecision),
    postToolCall: (p) => call('postToolCall', p, readText),
    preLlmCall: async (p) => (await call('preLlmCall', p, readText)) || undefined,
    postLlmCall: observe('postLlmCall'),
    sessionStart: observe('sessionStart'),
    sessionEnd: observe('sessionEnd'),
    subagentStart: observe('subagentStart'),
    subagentStop: observe('subagentStop'),
    preApproval: observeSync('preApproval'),
    postApproval: observeSync('postApproval'),
  };
}

function readDecision(value: unknown): PreToolCallDecision | typeof INVALID {
  if (!isRecord(value)) return INVALID;
  if (typeof value.block === 'string' && value.block.length > 0) return { block: value.block };
  if (isRecord(value.args)) return { args: value.args };
  return INVALID;
}

function readText(value: unknown): string | typeof INVALID {
  return typeof value === 'string' ? value : INVALID;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}

function preview(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
