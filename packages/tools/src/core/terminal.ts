/**
 * `terminal`: runs a shell command in the session's environment after the approval gate, in
 * the foreground (waiting, with a timeout) or in the background (managed with `process`).
 */
import type { ExecuteResult } from '@hermes/environments';
import { z } from 'zod';
import type { ToolSpec } from '../tool-spec.js';
import { approveCommand, defaultSurface, type SurfaceResolver } from './command-gate.js';
import { capText, eraseArgs } from './define.js';
import type { ProcessTableProvider } from './process-table.js';

/** Default foreground timeout, seconds. */
export const DEFAULT_TERMINAL_TIMEOUT_S = 180;
/** Longest foreground timeout a call may ask for, seconds. */
export const MAX_TERMINAL_TIMEOUT_S = 600;

/** Arguments of `terminal`. */
export const TerminalArgsSchema = z.object({
  command: z.string().trim().min(1, 'command must not be empty').describe('Shell command line'),
  background: z
    .boolean()
    .default(false)
    .describe('Start it in the background and return a process id (servers, watchers, long jobs)'),
  timeout: z
    .number()
    .int()
    .min(1, 'timeout must be at least 1 second')
    .max(
      MAX_TERMINAL_TIMEOUT_S,
      `timeout is at most ${MAX_TERMINAL_TIMEOUT_S} seconds; use background for longer jobs`,
    )
    .default(DEFAULT_TERMINAL_TIMEOUT_S)
    .describe('Foreground time limit in seconds (default 180, max 600)'),
  workdir: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe('Directory to run in (default: the current one)'),
});
/** Parsed arguments of the tool (see the schema's field descriptions). */
export type TerminalArgs = z.infer<typeof TerminalArgsSchema>;

/** Settings of `terminal`. */
export interface TerminalOptions {
  /** Who rules on `ask` verdicts. Default {@link defaultSurface}. */
  readonly surface?: SurfaceResolver;
  /** Background process tables, one per environment. */
  readonly processes: ProcessTableProvider;
  /** Characters of output returned. Default 50,000 (the environment also bounds it). */
  readonly maxOutputChars?: number;
}

/** Renders a foreground result: the output, then a status line the model can rely on. */
export function renderExecuteResult(
  result: ExecuteResult,
  timeoutS: number,
  maxChars: number,
): string {
  const lines: string[] = [];
  const output = result.output.replace(/\s+$/, '');
  lines.push(output === '' ? '(no output)' : capText(output, maxChars));
  if (result.spillPath)
    lines.push(`[full output saved to ${result.spillPath}; read it with read_file]`);
  if (result.timedOut)
    lines.push(
      `[timed out after ${timeoutS} s; the command was killed. Use background=true for long jobs]`,
    );
  else if (result.interrupted) lines.push('[interrupted; the command was killed]');
  else lines.push(`[exit code ${result.exitCode ?? 'none (killed by a signal)'}]`);
  return lines.join('\n');
}

/** Builds the `terminal` tool. */
export function createTerminalTool(options: TerminalOptions): ToolSpec {
  const surface = options.surface ?? defaultSurface;
  return eraseArgs<TerminalArgs>({
    name: 'terminal',
    toolset: 'terminal',
    emoji: '💻',
    description:
      'Run a shell command in the session environment and return its output and exit code. Foreground commands time out after `timeout` seconds (default 180, max 600). Use background=true for servers and long jobs, then manage them with the process tool. Commands are checked by the approval layer first; dangerous ones may be refused.',
    parameters: TerminalArgsSchema,
    handler: async (args, ctx) => {
      await approveCommand(args.command, ctx, 'terminal', surface, args.workdir);
      if (args.background) {
        const table = options.processes(ctx.environment);
        const started = await table.start(
          args.command,
          args.workdir === undefined ? {} : { cwd: args.workdir },
        );
        return {
          text: `Started background process ${started.id}${started.pid === undefined ? '' : ` (pid ${started.pid})`}.\nUse process(action="poll", session_id="${started.id}") to check it, "log" for output, "wait" to block until it exits, "kill" to stop it.`,
          data: started,
        };
      }
      const result = await ctx.environment.execute(args.command, {
        timeoutMs: args.timeout * 1000,
        signal: ctx.signal,
        ...(args.workdir === undefined ? {} : { cwd: args.workdir }),
        onActivity: (activity) => ctx.onActivity?.(activity.message),
      });
      return {
        text: renderExecuteResult(result, args.timeout, options.maxOutputChars ?? 50_000),
        data: {
          exitCode: result.exitCode,
          timedOut: result.timedOut,
          interrupted: result.interrupted,
          cwd: result.cwd,
        },
      };
    },
  });
}
