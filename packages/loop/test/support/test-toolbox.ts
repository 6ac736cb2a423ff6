/** A toolbox of plain functions, for loop tests that are about the loop rather than the tools. */
import type { ToolSchema } from '@hermes/protocol';
import type { ToolContext } from '@hermes/tools';
import type { ToolCallResult, Toolbox, ToolScheduling } from '../../src/index.js';

/** One test tool. */
export interface TestTool {
  readonly run: (args: Record<string, unknown>, ctx: ToolContext) => Promise<string> | string;
  readonly parallelSafe?: boolean;
  readonly exclusive?: boolean;
}

/** A Toolbox over a record of test tools; records every call. */
export class TestToolbox implements Toolbox {
  readonly calls: { name: string; args: Record<string, unknown> }[] = [];
  constructor(readonly tools: Record<string, TestTool>) {}

  schemas(): readonly ToolSchema[] {
    return Object.keys(this.tools).map((name) => ({
      type: 'function',
      function: { name, description: `test tool ${name}`, parameters: { type: 'object', properties: {} } },
    }));
  }

  names(): readonly string[] {
    return Object.keys(this.tools);
  }

  async dispatch(name: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolCallResult> {
    this.calls.push({ name, args });
    const started = performance.now();
    try {
      const content = await (this.tools[name] as TestTool).run(args, ctx);
      return { content, status: 'ok', durationMs: performance.now() - started };
    } catch (error) {
      return { content: `[TOOL_ERROR] ${(error as Error).message}`, status: 'error', durationMs: 0 };
    }
  }

  scheduling(name: string): ToolScheduling {
    const tool = this.tools[name];
    return { exclusive: tool?.exclusive ?? false, parallelSafe: tool?.parallelSafe ?? false, paths: [] };
  }
}
