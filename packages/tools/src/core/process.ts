/** `process`: manages background processes started by `terminal(background=true)`. */
import type { BackgroundProcessInfo } from '@hermes/environments';
import { z } from 'zod';
import type { ToolSpec } from '../tool-spec.js';
import { approveCommand, defaultSurface, type SurfaceResolver } from './command-gate.js';
import { capText, eraseArgs } from './define.js';
import { CoreToolError } from './errors.js';
import type { ProcessTableProvider } from './process-table.js';
import { DEFAULT_TERMINAL_TIMEOUT_S, MAX_TERMINAL_TIMEOUT_S } from './terminal.js';

/** Output characters one `poll` / `log` / `wait` returns. */
export const MAX_PROCESS_OUTPUT_CHARS = 20_000;

/** Arguments of `process`. */
export const ProcessArgsSchema = z.object({
  action: z
    .enum(['list', 'poll', 'log', 'wait', 'kill', 'write', 'submit', 'close'])
    .describe(
      'list all; poll = status + new output; log = recent output; wait = block until exit; kill; write = send data to stdin; submit = send data plus Enter; close = close stdin',
    ),
  session_id: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe('The process id from terminal(background=true), e.g. proc_1'),
  data: z.string().optional().describe('Text for write / submit'),
  timeout: z
    .number()
    .int()
    .min(1)
    .max(MAX_TERMINAL_TIMEOUT_S, `timeout is at most ${MAX_TERMINAL_TIMEOUT_S} seconds`)
    .default(DEFAULT_TERMINAL_TIMEOUT_S)
    .describe('wait: seconds to block (default 180, max 600)'),
  limit: z.number().int().min(1).max(5_000).default(200).describe('log: how many recent lines'),
});
/** Parsed arguments of the tool (see the schema's field descriptions). */
export type ProcessArgs = z.infer<typeof ProcessArgsSchema>;

function describe(info: BackgroundProcessInfo): string {
  const seconds = Math.round(((info.endedAt ?? Date.now()) - info.startedAt) / 1000);
  const exit = info.status === 'exited' ? ` (exit code ${info.exitCode ?? 'none'})` : '';
  const pid = info.pid === undefined ? '' : ` pid ${info.pid}`;
  return `${info.id} ${info.status}${exit}${pid} ${seconds}s: ${info.command}`;
}

function need<T>(value: T | undefined, what: string, action: string): T {
  if (value === undefined) throw new CoreToolError(`process action "${action}" needs ${what}.`);
  return value;
}

/**
 * Builds the `process` tool over `processes`. Text sent with `write` / `submit` passes the
 * approval gate like a command, because a background shell would run it as one.
 */
export function createProcessTool(
  processes: ProcessTableProvider,
  surface: SurfaceResolver = defaultSurface,
): ToolSpec {
  return eraseArgs<ProcessArgs>({
    name: 'process',
    toolset: 'terminal',
    emoji: '⚙️',
    description:
      'Manage background processes started with terminal(background=true): list, poll (status and new output), log (recent output), wait (block until exit, up to timeout seconds), kill, write (send text to stdin), submit (send text and Enter), close (close stdin).',
    parameters: ProcessArgsSchema,
    handler: async (args, ctx) => {
      const table = processes(ctx.environment);
      if (args.action === 'list') {
        const all = table.list();
        return all.length === 0 ? 'No background processes.' : all.map(describe).join('\n');
      }
      const id = need(args.session_id, 'session_id', args.action);
      switch (args.action) {
        case 'poll': {
          const poll = table.poll(id);
          const lost =
            poll.dropped > 0
              ? `\n[${poll.dropped} characters of output were dropped before this poll]`
              : '';
          return `${describe(poll)}${lost}\n${capText(poll.output, MAX_PROCESS_OUTPUT_CHARS) || '(no new output)'}`;
        }
        case 'log': {
          const log = table.log(id, { tail: args.limit });
          const info = table.list().find((p) => p.id === id);
          const head = info ? `${describe(info)}\n` : '';
          return `${head}${capText(log, MAX_PROCESS_OUTPUT_CHARS) || '(no output)'}`;
        }
        case 'wait': {
          const waited = await table.wait(id, {
            timeoutMs: args.timeout * 1000,
            signal: ctx.signal,
          });
          const note = waited.timedOut
            ? `\n[still running after ${args.timeout} s]`
            : waited.interrupted
              ? '\n[wait interrupted; still running]'
              : '';
          const poll = table.poll(id);
          return `${describe(poll)}${note}\n${capText(poll.output, MAX_PROCESS_OUTPUT_CHARS) || '(no new output)'}`;
        }
        case 'kill':
          return describe(await table.kill(id));
        case 'write':
        case 'submit': {
          const data = need(args.data, 'data', args.action);
          await approveCommand(data, ctx, 'process', surface);
          await table.write(id, args.action === 'submit' ? `${data}\n` : data);
          return `Sent ${data.length} characters${args.action === 'submit' ? ' and Enter' : ''} to ${id}.`;
        }
        case 'close':
          table.close(id);
          return `Closed stdin of ${id}.`;
      }
    },
  });
}
