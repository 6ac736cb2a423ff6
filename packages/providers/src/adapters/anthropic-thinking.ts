/**
 * Extended thinking: Hermes' reasoning effort as an Anthropic thinking budget.
 *
 * | effort    | `budget_tokens` |
 * | --------- | --------------- |
 * | `none`    | no thinking     |
 * | `minimal` | 1,024 (the API's minimum) |
 * | `low`     | 4,000           |
 * | `medium`  | 8,000           |
 * | `high`    | 16,000          |
 * | `xhigh`   | 32,000          |
 *
 * The numbers are the Python original's. Thinking tokens count toward `max_tokens`, and the API
 * requires `budget_tokens < max_tokens`, so the budget is cut to leave at least
 * {@link THINKING_ANSWER_ROOM} tokens for the visible answer; when that leaves less than the
 * minimum budget, the request goes without thinking rather than being rejected.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { ReasoningEffort, ToolChoice } from '../chat-request.js';

/** The smallest budget the API accepts. */
export const MIN_THINKING_BUDGET = 1_024;

/** Output tokens always kept for the answer after the thinking budget. */
export const THINKING_ANSWER_ROOM = 1_024;

/** The thinking budget of each reasoning effort; see the module comment. */
export const ANTHROPIC_THINKING_BUDGETS: Readonly<
  Record<Exclude<ReasoningEffort, 'none'>, number>
> = {
  minimal: MIN_THINKING_BUDGET,
  low: 4_000,
  medium: 8_000,
  high: 16_000,
  xhigh: 32_000,
};

/**
 * The `thinking` parameter for `effort` under `maxTokens`, or `undefined` for none:
 * - no effort given (the model's default) or `none`;
 * - a tool choice that forces a call (`required` or a named function) — the API refuses thinking
 *   together with forced tool use, and the caller's explicit choice wins;
 * - a `maxTokens` too small to hold the minimum budget plus the answer room.
 */
export function thinkingConfig(
  effort: ReasoningEffort | undefined,
  maxTokens: number,
  forcedToolChoice: boolean,
): Anthropic.ThinkingConfigEnabled | undefined {
  if (effort === undefined || effort === 'none' || forcedToolChoice) return undefined;
  const budget = Math.min(ANTHROPIC_THINKING_BUDGETS[effort], maxTokens - THINKING_ANSWER_ROOM);
  return budget < MIN_THINKING_BUDGET ? undefined : { type: 'enabled', budget_tokens: budget };
}

/** Whether `choice` makes the model call a tool (then thinking must stay off). */
export function forcesToolUse(choice: ToolChoice | undefined): boolean {
  return choice !== undefined && choice !== 'auto' && choice !== 'none';
}
