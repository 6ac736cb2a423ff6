/** A toolbox of plain functions, for loop tests that are about the loop rather than the tools. */
import type { ToolSchema } from '@hermes/protocol';
import type { ToolContext } from '@hermes/tools';
import type { PlannableCall, ToolBatch, Toolbox, ToolCallResult } from '../../src/index.js';

/** One test tool. */
export interface TestTool {
  readonly run: (args: Record<string, unknown>, ctx: ToolContext) => Promise<string> | string;
  readonly parallelSafe?: boolean;
}

/** A Toolbox over a record of test tools; records every call. */
export class TestToolbox implements Toolbox {
  readonly calls: { name: string; args: Record<string, unknown> }[] = [];
  constructor(readonly tools: Record<string, TestTool>) {}

  schemas(): readonly ToolSchema[] {
    return Object.keys(this.tools).map((name) => ({
      type: 'function',
      function: {
        name,
        description: `test tool ${name}`,
        parameters: { type: 'object', properties: {} },
      },
    }));
  }

  names(): readonly string[] {
    return Object.keys(this.tools);
  }

  async dispatch(
    name: string,
    args: Record<string, unknown>,
    ctx: ToolContext,
  ): Promise<ToolCallResult> {
    this.calls.push({ name, args });
    const started = performance.now();
    try {
      const content = await (this.tools[name] as TestTool).run(args, ctx);
      return { content, status: 'ok', durationMs: performance.now() - started };
    } catch (error) {
      return {
        content: `[TOOL_ERROR] ${(error as Error).message}`,
        status: 'error',
        durationMs: 0,
      };
    }
  }

  plan<C extends PlannableCall>(calls: readonly C[]): ToolBatch<C>[] {
    // Consecutive parallel-safe calls run together; anything else alone.
    const out: ToolBatch<C>[] = [];
    for (const call of calls) {
      const safe = this.tools[call.name]?.parallelSafe === true;
      const last = out.at(-1);
      if (safe && last?.mode === 'parallel')
        out[out.length - 1] = { mode: 'parallel', calls: [...last.calls, call] };
      else out.push({ mode: safe ? 'parallel' : 'sequential', calls: [call] });
    }
    return out;
  }
}
