/**
 * How `execute_code`'s scripts reach the agent's own tool path. The tool lives in a registry that
 * many agents share, so it cannot hold one agent's toolbox; instead the agent's outermost toolbox
 * puts its own dispatch on the context of each `execute_code` call, and the script's calls go
 * through it — the same hooks, registry dispatch and command approval as the model's calls.
 */
import type { ToolSchema } from '@hermes/protocol';
import type { ToolContext } from '@hermes/tools';
import type { PlannableCall, ToolBatch, Toolbox, ToolCallResult } from './toolbox.js';

/** Runs one tool call the way the agent runs the model's. */
export type AgentDispatch = (
  name: string,
  args: Record<string, unknown>,
  ctx: ToolContext,
) => Promise<ToolCallResult>;

/** A symbol, not a field of ToolContext: only this package's wiring reads it. */
const AGENT_DISPATCH: unique symbol = Symbol('hermes.agentDispatch');

type WithDispatch = ToolContext & { readonly [AGENT_DISPATCH]?: AgentDispatch };

/** The agent's dispatch carried by `ctx`, when an agent's toolbox made the call. */
export function agentDispatchOf(ctx: ToolContext): AgentDispatch | undefined {
  return (ctx as WithDispatch)[AGENT_DISPATCH];
}

/** `inner`, handing its own dispatch to every `execute_code` call it runs. */
export class ScriptDispatchToolbox implements Toolbox {
  readonly #dispatch: AgentDispatch;

  constructor(readonly inner: Toolbox) {
    this.#dispatch = (name, args, ctx) => this.dispatch(name, args, ctx);
  }

  schemas(): readonly ToolSchema[] | Promise<readonly ToolSchema[]> {
    return this.inner.schemas();
  }

  names(): readonly string[] {
    return this.inner.names();
  }

  plan<C extends PlannableCall>(calls: readonly C[]): ToolBatch<C>[] {
    return this.inner.plan(calls);
  }

  dispatch(name: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolCallResult> {
    if (name !== 'execute_code') return this.inner.dispatch(name, args, ctx);
    const carried: WithDispatch = { ...ctx, [AGENT_DISPATCH]: this.#dispatch };
    return this.inner.dispatch(name, args, carried);
  }
}
