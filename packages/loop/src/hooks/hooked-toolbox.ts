/**
 * `preToolCall` / `postToolCall` around every tool the agent can call: a decorator over the
 * agent's whole toolbox (registry tools, loop tools such as memory and `delegate_task`), so no
 * tool can slip past a policy hook. A block answers the call with the hook's reason and the tool
 * never runs; rewritten arguments go to the inner dispatch, which validates them again as if the
 * model had sent them; the post hook may replace the text the model reads.
 */
import type { ToolSchema } from '@hermes/protocol';
import type { ToolContext } from '@hermes/tools';
import type { PlannableCall, ToolBatch, Toolbox, ToolCallResult } from '../tools/toolbox.js';
import type { GuardedHooks } from './guard-hooks.js';

/** `inner` with the tool hooks run around each dispatch. */
export class HookedToolbox implements Toolbox {
  constructor(
    readonly inner: Toolbox,
    readonly hooks: GuardedHooks,
  ) {}

  schemas(): readonly ToolSchema[] | Promise<readonly ToolSchema[]> {
    return this.inner.schemas();
  }

  names(): readonly string[] {
    return this.inner.names();
  }

  plan<C extends PlannableCall>(calls: readonly C[]): ToolBatch<C>[] {
    return this.inner.plan(calls);
  }

  async dispatch(
    name: string,
    args: Record<string, unknown>,
    ctx: ToolContext,
  ): Promise<ToolCallResult> {
    const sessionId = ctx.sessionId;
    const decision = await this.hooks.preToolCall({ toolName: name, args, sessionId });
    let ranWith = args;
    let result: ToolCallResult;
    if (decision && 'block' in decision) {
      result = { content: decision.block, status: 'blocked', durationMs: 0 };
    } else {
      if (decision) ranWith = { ...decision.args };
      result = await this.#run(name, ranWith, ctx);
    }
    const replaced = await this.hooks.postToolCall({
      toolName: name,
      args: ranWith,
      result: result.content,
      // The executor marks a call the interrupt caught as cancelled; say so here already.
      status: ctx.signal.aborted ? 'cancelled' : result.status,
      sessionId,
    });
    return replaced === undefined ? result : { ...result, content: replaced };
  }

  async #run(name: string, args: Record<string, unknown>, ctx: ToolContext) {
    try {
      return await this.inner.dispatch(name, args, ctx);
    } catch (error) {
      // Dispatch promises never to throw; keep that promise for the post hook's sake too.
      const reason = error instanceof Error ? error.message : String(error);
      return { content: `[TOOL_ERROR] ${reason}`, status: 'error' as const, durationMs: 0 };
    }
  }
}
