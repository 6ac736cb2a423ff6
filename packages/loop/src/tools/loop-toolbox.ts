/**
 * Tools the loop itself implements (`delegate_task`, and whatever the host adds: memory,
 * session_search, skills) layered over a toolbox, plus a narrowing wrapper that hides tools (what
 * a child agent gets).
 */
import type { ToolSchema } from '@hermes/protocol';
import type { ToolContext } from '@hermes/tools';
import type { PlannableCall, ToolBatch, Toolbox, ToolCallResult } from './toolbox.js';

/** A tool implemented by the loop or its host. */
export interface LoopTool {
  readonly schema: ToolSchema;
  /** Returns the result text; a thrown error becomes an error result. */
  readonly run: (args: Record<string, unknown>, ctx: ToolContext) => Promise<string>;
}

/** `inner` plus loop tools; a loop tool of the same name replaces the inner one. */
export class LoopToolbox implements Toolbox {
  readonly #inner: Toolbox;
  readonly #tools = new Map<string, LoopTool>();

  constructor(inner: Toolbox, tools: readonly LoopTool[]) {
    this.#inner = inner;
    for (const tool of tools) this.#tools.set(tool.schema.function.name, tool);
  }

  async schemas(): Promise<readonly ToolSchema[]> {
    const inner = (await this.#inner.schemas()).filter((s) => !this.#tools.has(s.function.name));
    return [...inner, ...[...this.#tools.values()].map((t) => t.schema)];
  }

  names(): readonly string[] {
    return [...new Set([...this.#inner.names(), ...this.#tools.keys()])];
  }

  async dispatch(
    name: string,
    args: Record<string, unknown>,
    ctx: ToolContext,
  ): Promise<ToolCallResult> {
    const tool = this.#tools.get(name);
    if (!tool) return this.#inner.dispatch(name, args, ctx);
    const started = performance.now();
    try {
      const content = await tool.run(args, ctx);
      return { content, status: 'ok', durationMs: performance.now() - started };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return {
        content: `[TOOL_ERROR] ${reason}`,
        status: 'error',
        durationMs: performance.now() - started,
      };
    }
  }

  plan<C extends PlannableCall>(calls: readonly C[]): ToolBatch<C>[] {
    // Loop tools act on the turn itself: each runs alone, in order.
    const out: ToolBatch<C>[] = [];
    let run: C[] = [];
    const flush = () => {
      if (run.length) out.push(...this.#inner.plan(run));
      run = [];
    };
    for (const call of calls) {
      if (!this.#tools.has(call.name)) {
        run.push(call);
        continue;
      }
      flush();
      out.push({ mode: 'sequential', calls: [call] });
    }
    flush();
    return out;
  }
}

/** `inner` without the `blocked` tools: not exposed, and refused if called anyway. */
export class NarrowedToolbox implements Toolbox {
  constructor(
    readonly inner: Toolbox,
    readonly blocked: ReadonlySet<string>,
  ) {}

  async schemas(): Promise<readonly ToolSchema[]> {
    return (await this.inner.schemas()).filter((s) => !this.blocked.has(s.function.name));
  }

  names(): readonly string[] {
    return this.inner.names().filter((n) => !this.blocked.has(n));
  }

  dispatch(name: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolCallResult> {
    if (this.blocked.has(name)) {
      return Promise.resolve({
        content: `[TOOL_ERROR] ${name} is not available to a delegated task.`,
        status: 'error',
        durationMs: 0,
      });
    }
    return this.inner.dispatch(name, args, ctx);
  }

  plan<C extends PlannableCall>(calls: readonly C[]): ToolBatch<C>[] {
    return this.inner.plan(calls);
  }
}
