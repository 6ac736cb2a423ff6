/**
 * `hermes logs [errors] [-n N] [--follow]`: the last lines of `HERMES_HOME/logs/agent.log` (or
 * `errors.log`), and with `--follow` every line appended after them until Ctrl-C, across
 * rotations.
 */
import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
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

/** The file being followed (its inode) and how far it has been printed. */
interface Position {
  ino: number | undefined;
  offset: number;
}

/**
 * What `path` holds beyond `position`, which moves past it. A different file at the path (a
 * rotation: renamed aside, a new one started) is read from its start, as is a shrunk one
 * (truncated in place). Undefined when there is nothing new, or no file yet.
 */
function readNew(path: string, position: Position): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const { ino, size } = fstatSync(fd);
    if (ino !== position.ino || size < position.offset) {
      position.ino = ino;
      position.offset = 0;
    }
    if (size <= position.offset) return undefined;
    const buffer = Buffer.alloc(size - position.offset);
    const read = readSync(fd, buffer, 0, buffer.length, position.offset);
    position.offset += read;
    return buffer.toString('utf8', 0, read);
  } finally {
    closeSync(fd);
  }
}

/** Prints what is appended to `path` after `position` until SIGINT, SIGTERM or `ctx.signal`. */
async function follow(path: string, position: Position, ctx: CommandContext): Promise<void> {
  const stopper = new AbortController();
  const stop = (): void => stopper.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  ctx.signal?.addEventListener('abort', stop, { once: true });
  if (ctx.signal?.aborted) stop();
  try {
    while (!stopper.signal.aborted) {
      const text = readNew(path, position);
      if (text !== undefined) ctx.stdout.write(text);
      await sleep(POLL_MS, undefined, { signal: stopper.signal }).catch(() => undefined);
    }
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    ctx.signal?.removeEventListener('abort', stop);
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
    // Following starts exactly after the bytes shown, in the file they came from: a line
    // appended in between is printed, not skipped.
    const position: Position = { ino: undefined, offset: 0 };
    if (existsSync(path)) {
      const lines = lastLines(readNew(path, position) ?? '', count);
      if (lines.length > 0) ctx.stdout.write(`${lines.join('\n')}\n`);
    } else if (!values.follow) {
      ctx.stderr.write(`hermes logs: no log yet at ${path}\n`);
      return ExitCode.ok;
    }
    if (values.follow) await follow(path, position, ctx);
    return ExitCode.ok;
  });
}
