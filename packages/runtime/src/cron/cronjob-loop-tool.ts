/**
 * The `cronjob` tool as the agent loop serves it. The tool registry reserves the name for the
 * loop (generic dispatch refuses it), so the real tool from `@hermes/cron` is handed to agents as
 * a loop tool, whose handler gets the call's `ToolContext` — with `origin`, the chat a job
 * created here delivers back to.
 *
 * Every chat agent offers it, and most never call it: the agent is built from the schema alone
 * (`@hermes/cron/tool-schema`, zod only), and `@hermes/cron` itself — croner, the SQLite job
 * store — is imported, and `state.db`'s job tables opened, at the first call.
 */
import type { CronjobToolOptions, JobStore } from '@hermes/cron';
import { CRONJOB_DESCRIPTION, CronjobArgsSchema } from '@hermes/cron/tool-schema';
import type { LoopTool } from '@hermes/loop';
import type { ToolHandlerResult, ToolSpec } from '@hermes/tools';
import { z } from 'zod';

/** What an agent's `cronjob` tool works on when its host has a cron service (the gateway). */
export interface CronjobSetup {
  /** Where jobs are kept (`HERMES_HOME/state.db`). */
  readonly store: JobStore;
  /**
   * Runs a job now (the gateway: `scheduler.runNow` in the background). Without it, `run` makes
   * the job due and the next tick (`hermes cron tick`, the gateway's clock) runs it.
   */
  readonly runNow?: (id: string) => Promise<unknown>;
}

/** Options of {@link cronjobLoopTool}. */
export interface CronjobLoopToolOptions {
  /** The home whose `state.db` holds the jobs when no `store` is given. */
  readonly hermesHome: string;
  /** A store the host owns; without it the tool opens its own at the first call. */
  readonly store?: JobStore;
  /**
   * Opens the tool's own store at the first call (PostgreSQL under `storage:`); default SQLite
   * in `hermesHome/state.db`. Closed with the tool.
   */
  readonly openStore?: () => Promise<JobStore>;
  readonly timezone?: string | undefined;
  readonly runNow?: (id: string) => Promise<unknown>;
}

/** A loop tool that may own a job store. */
export interface CronjobLoopTool extends LoopTool {
  /** Whether the tool has loaded `@hermes/cron` (it was called). */
  readonly loaded: boolean;
  /** Closes the store the tool opened itself, if it did. */
  close(): Promise<void>;
}

let parameters: Record<string, unknown> | undefined;

/** The JSON Schema of the arguments, converted once per process. */
function parametersOnce(): Record<string, unknown> {
  parameters ??= z.toJSONSchema(CronjobArgsSchema, {
    io: 'input',
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return parameters;
}

function argsOf(args: unknown): Record<string, unknown> {
  const parsed = CronjobArgsSchema.safeParse(args);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.join('.') || 'arguments';
  throw new Error(`invalid arguments for cronjob: ${where}: ${issue?.message ?? 'invalid'}`);
}

function textOf(result: ToolHandlerResult): string {
  return typeof result === 'string' ? result : result.text;
}

/** The `cronjob` loop tool over `options`. */
export function cronjobLoopTool(options: CronjobLoopToolOptions): CronjobLoopTool {
  let loading: Promise<ToolSpec> | undefined;
  let ownStore: JobStore | undefined;
  let closed = false;
  const load = async (): Promise<ToolSpec> => {
    const cron = await import('@hermes/cron');
    if (closed) throw new Error('the cronjob tool is closed');
    if (!options.store) {
      ownStore = options.openStore
        ? await options.openStore()
        : cron.openSqliteJobStore(options.hermesHome);
      // Closed while a networked store was connecting: it must not stay open.
      if (closed) {
        await ownStore.close();
        throw new Error('the cronjob tool is closed');
      }
    }
    const store = options.store ?? (ownStore as JobStore);
    const toolOptions: CronjobToolOptions = {
      store,
      timezone: options.timezone,
      ...(options.runNow ? { runNow: options.runNow } : {}),
    };
    return cron.cronjobTool(toolOptions);
  };
  return {
    schema: {
      type: 'function',
      function: { name: 'cronjob', description: CRONJOB_DESCRIPTION, parameters: parametersOnce() },
    },
    get loaded() {
      return loading !== undefined;
    },
    run: async (args, ctx) => {
      const input = argsOf(args);
      loading ??= load();
      const spec = await loading;
      return textOf(await spec.handler(input, ctx));
    },
    async close() {
      closed = true;
      await loading?.catch(() => undefined);
      await ownStore?.close();
    },
  };
}
