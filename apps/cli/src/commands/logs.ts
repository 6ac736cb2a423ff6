/**
 * `hermes logs [errors] [-n N] [--follow]`: the last lines of `HERMES_HOME/logs/agent.log` (or
 * `errors.log`), and with `--follow` every line appended after them until Ctrl-C, across
 * rotations.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { ExitCode } from '@hermes/config';
import type { CommandContext } from '../command-context.js';
import { intOption, parseCommandArgs, usageFailure, withUsage } from '../config/command-args.js';
import { logPaths } from '../logging/logger.js';

const USAGE = `Usage: hermes logs [errors] [-n <lines>] [--follow]

  (no argument)   show the end of logs/agent.log (every line the agent logs)
  errors          show the end of logs/errors.log (warnings and errors only)
  -n, --lines N   how many lines (default 50)
  -f, --follow    keep printing new lines until Ctrl-C
`;

const POLL_MS = 250;

/** The last `count` lines of `text` (a trailing newline does not count as a line). */
export function lastLines(text: string, count: number): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.slice(Math.max(0, lines.length - count));
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function readFrom(path: string, offset: number, end: number): string {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(end - offset);
    readSync(fd, buffer, 0, buffer.length, offset);
    return buffer.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** Prints what is appended to `path` until SIGINT or SIGTERM; a shrunk file was rotated. */
async function follow(path: string, start: number, ctx: CommandContext): Promise<void> {
  let stopped = false;
  const stop = () => {
    stopped = true;
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    let offset = start;
    while (!stopped) {
      const size = sizeOf(path);
      if (size < offset) offset = 0;
      if (size > offset) {
        ctx.stdout.write(readFrom(path, offset, size));
        offset = size;
      }
      await sleep(POLL_MS);
    }
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

/** Runs `hermes logs`; resolves to the exit code. */
export function run(args: readonly string[], ctx: CommandContext): Promise<number> {
  return withUsage(ctx, 'logs', async () => {
    const { values, positionals } = parseCommandArgs(args, {
      help: { type: 'boolean', short: 'h' },
      lines: { type: 'string', short: 'n' },
      follow: { type: 'boolean', short: 'f' },
    });
    if (values.help) {
      ctx.stdout.write(USAGE);
      return ExitCode.ok;
    }
    const [which = 'agent', extra] = positionals;
    if (extra !== undefined) return usageFailure(ctx, 'logs', `unexpected argument '${extra}'`);
    if (which !== 'agent' && which !== 'errors') {
      return usageFailure(ctx, 'logs', `unknown log '${which}'; use 'errors' or nothing`);
    }
    const count = intOption(values, 'lines', 1) ?? 50;
    const path = logPaths(ctx.hermesHome)[which];
    const exists = existsSync(path);
    if (exists) {
      const text = readFileSync(path, 'utf8');
      const lines = lastLines(text, count);
      if (lines.length > 0) ctx.stdout.write(`${lines.join('\n')}\n`);
    } else if (!values.follow) {
      ctx.stderr.write(`hermes logs: no log yet at ${path}\n`);
      return ExitCode.ok;
    }
    if (values.follow) await follow(path, sizeOf(path), ctx);
    return ExitCode.ok;
  });
}
