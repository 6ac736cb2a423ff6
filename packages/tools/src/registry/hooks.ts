/**
 * Hooks around every dispatched tool call. A pre-tool-call hook may block a call (policy
 * plugins, audit gates); a post-tool-call hook observes the outcome (logging, metrics). Neither
 * can break dispatch: a hook that throws is reported and otherwise ignored.
 */
import type { ToolContext } from '../tool-context.js';

/** How a dispatched call ended. */
export type DispatchStatus = 'ok' | 'error' | 'blocked';

/** What a pre-tool-call hook sees: the resolved name and the validated, coerced arguments. */
export interface PreToolCallEvent {
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly ctx: ToolContext;
}

/** A pre-tool-call hook's verdict: `{ block }` stops the call with exactly that message. */
export interface PreToolCallBlock {
  readonly block: string;
}

/** What a pre-tool-call hook may return: a block, or nothing to let the call go on. */
// biome-ignore lint/suspicious/noConfusingVoidType: observing hooks return nothing; `void` lets them be plain functions.
export type PreToolCallOutcome = PreToolCallBlock | undefined | void;

/** Runs before the handler; return `{ block: message }` to stop the call, or nothing to go on. */
export type PreToolCallHook = (
  event: PreToolCallEvent,
) => PreToolCallOutcome | Promise<PreToolCallOutcome>;

/** What a post-tool-call hook sees: the call and how it ended. */
export interface PostToolCallEvent {
  /** The resolved tool name (the requested name when it matched no tool). */
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly ctx: ToolContext;
  readonly status: DispatchStatus;
  /** The exact text the model will read. */
  readonly content: string;
  readonly durationMs: number;
  readonly data?: unknown;
}

/** Runs after every dispatch, whatever its outcome, unless the caller suppressed hooks. */
export type PostToolCallHook = (event: PostToolCallEvent) => void | Promise<void>;

/** Where hook failures are reported; the default ignores them. */
export type HookErrorReporter = (hook: 'preToolCall' | 'postToolCall', error: unknown) => void;

/** Reads a hook's return value as a block, accepting only a non-empty `block` string. */
export function asBlock(value: unknown): PreToolCallBlock | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const block = (value as { block?: unknown }).block;
  return typeof block === 'string' && block.length > 0 ? { block } : undefined;
}
