/**
 * The `cronjob` tool as the agent loop serves it. The tool registry reserves the name for the
 * loop (generic dispatch refuses it), so the real tool from `@hermes/cron` is handed to agents as
 * a loop tool: its zod schema validates the arguments, and its handler gets the call's
 * `ToolContext` — with `origin`, the chat a job created here delivers back to.
 */
import { type CronjobToolOptions, cronjobTool, type JobStore } from '@hermes/cron';
import type { LoopTool } from '@hermes/loop';
import type { ToolHandlerResult } from '@hermes/tools';
import { z } from 'zod';

/** What an agent's `cronjob` tool works on. */
export interface CronjobSetup {
  /** Where jobs are kept (`HERMES_HOME/state.db`). */
  readonly store: JobStore;
  /**
   * Runs a job now (the gateway: `scheduler.runNow` in the background). Without it, `run` makes
   * the job due and the next tick (`hermes cron tick`, the gateway's clock) runs it.
   */
  readonly runNow?: (id: string) => Promise<unknown>;
}

/** The `cronjob` loop tool over `options` (store, time zone, run-now). */
export function cronjobLoopTool(options: CronjobToolOptions): LoopTool {
  const spec = cronjobTool(options);
  const schema = spec.parameters instanceof z.ZodType ? spec.parameters : undefined;
  const parameters = schema
    ? (z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>)
    : (spec.parameters as Record<string, unknown>);
  return {
    schema: {
      type: 'function',
      function: { name: spec.name, description: spec.description, parameters },
    },
    run: async (args, ctx) => {
      let input: unknown = args;
      if (schema) {
        const parsed = schema.safeParse(args);
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          const where = issue?.path.join('.') || 'arguments';
          throw new Error(
            `invalid arguments for cronjob: ${where}: ${issue?.message ?? 'invalid'}`,
          );
        }
        input = parsed.data;
      }
      return textOf(await spec.handler(input as Record<string, unknown>, ctx));
    },
  };
}

function textOf(result: ToolHandlerResult): string {
  return typeof result === 'string' ? result : result.text;
}
