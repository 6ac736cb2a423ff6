/**
 * `subagentStart` / `subagentStop` around one `delegate_task` child: stop is reported however the
 * child ends — with its exit reason and answer, or as `failed` with the error when it could not
 * run at all.
 */
import type { TurnResult } from '../turn/turn-result.js';
import type { GuardedHooks } from './guard-hooks.js';

/** What identifies the child to the hooks. */
export interface SubagentInfo {
  readonly parentSessionId: string;
  readonly goal: string;
}

/** Runs `child` between the two hooks; `summarize` gives the answer as the parent reads it. */
export async function observeSubagent(
  hooks: GuardedHooks | undefined,
  info: SubagentInfo,
  child: () => Promise<TurnResult>,
  summarize: (result: TurnResult) => string,
): Promise<TurnResult> {
  if (!hooks) return child();
  await hooks.subagentStart({ ...info });
  let result: TurnResult;
  try {
    result = await child();
  } catch (error) {
    const summary = error instanceof Error ? error.message : String(error);
    await hooks.subagentStop({ ...info, exitReason: 'failed', summary });
    throw error;
  }
  await hooks.subagentStop({ ...info, exitReason: result.exitReason, summary: summarize(result) });
  return result;
}
