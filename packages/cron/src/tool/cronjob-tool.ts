/**
 * The `cronjob` tool: the model schedules, lists, changes and runs unattended jobs. Everything it
 * needs (the store, the zone, a way to run now) comes through its options. The registry reserves
 * the name for the agent loop, so hosts hand it to agents as a loop tool (the runtime's
 * `cronjobLoopTool`), which passes the call's context (with `origin`) to the handler.
 */
import type { ToolSpec } from '@hermes/tools';
import type { JobStore } from '../store/job-store.js';
import {
  type CronjobEnv,
  createAction,
  listAction,
  removeAction,
  runAction,
  setEnabledAction,
  updateAction,
} from './cronjob-actions.js';
import { CRONJOB_DESCRIPTION, type CronjobArgs, CronjobArgsSchema } from './cronjob-args.js';

/** Options of {@link cronjobTool}. */
export interface CronjobToolOptions {
  readonly store: JobStore;
  /** IANA zone for cron expressions and zone-less times; default (undefined) the system zone. */
  readonly timezone?: string | undefined;
  readonly clock?: () => number;
  /**
   * Runs a job now and resolves with its run record (undefined when another process holds it).
   * Without it, `run` makes the job due so the next scheduler tick runs it.
   */
  readonly runNow?: (id: string) => Promise<unknown>;
}

/** Builds the `cronjob` tool over `options.store`. */
export function cronjobTool(options: CronjobToolOptions): ToolSpec {
  const clock = options.clock ?? Date.now;
  const spec: ToolSpec<CronjobArgs> = {
    name: 'cronjob',
    toolset: 'cronjob',
    emoji: '⏰',
    description: CRONJOB_DESCRIPTION,
    parameters: CronjobArgsSchema,
    handler: (args, ctx) => {
      const env: CronjobEnv = {
        store: options.store,
        now: clock(),
        timezone: options.timezone,
        runNow: options.runNow,
      };
      switch (args.action) {
        case 'create':
          return createAction(env, args, ctx);
        case 'list':
          return listAction(env);
        case 'update':
          return updateAction(env, args);
        case 'pause':
          return setEnabledAction(env, args, false);
        case 'resume':
          return setEnabledAction(env, args, true);
        case 'remove':
          return removeAction(env, args);
        case 'run':
          return runAction(env, args);
      }
    },
  };
  // Dispatch validates arguments with the spec's own schema before the handler runs.
  return spec as unknown as ToolSpec;
}
