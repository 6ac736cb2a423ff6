/**
 * `hermes gateway run`: the same server as `hermes-gateway run` (one function in
 * `@hermes/runtime` does both), for people who installed only the `hermes` command.
 */
import { EventEmitter } from 'node:events';
import { ExitCode } from '@hermes/config';
import type { ProcessEvents } from '@hermes/runtime';
import type { CommandContext } from '../command-context.js';
import { parseCommandArgs, usageFailure, withUsage } from '../config/command-args.js';

const USAGE = `Usage: hermes gateway run

Serves every enabled platform adapter (platforms: in config.yaml) until SIGTERM or Ctrl-C, then
lets running turns finish and exits 0. The OpenAI-compatible API server is enabled with
API_SERVER_ENABLED=true (or platforms.api_server.enabled: true) and needs API_SERVER_KEY, at least
16 characters. The plugins in plugins.enabled give the agents their tools and hooks and serve the
platforms they register. Logs go to HERMES_HOME/logs/gateway.log. Same as: hermes-gateway run
`;

/**
 * The process's stop events, plus `ctx.signal` (an embedder's or a test's way to press Ctrl-C)
 * turned into a SIGINT.
 */
function stopEvents(ctx: CommandContext): ProcessEvents {
  const signal = ctx.signal;
  if (!signal) return process;
  const events = new EventEmitter();
  for (const name of ['SIGTERM', 'SIGINT', 'uncaughtException', 'unhandledRejection'] as const) {
    const forward = (value: unknown) => events.emit(name, value);
    events.on('newListener', (event) => {
      if (event === name && events.listenerCount(name) === 0) process.on(name, forward);
    });
    events.on('removeListener', (event) => {
      if (event === name && events.listenerCount(name) === 0) process.off(name, forward);
    });
  }
  const press = () => events.emit('SIGINT', 'SIGINT');
  if (signal.aborted) queueMicrotask(press);
  else signal.addEventListener('abort', press, { once: true });
  return events as ProcessEvents;
}

/** Runs `hermes gateway`; resolves to the exit code. */
export function run(args: readonly string[], ctx: CommandContext): Promise<number> {
  return withUsage(ctx, 'gateway', async () => {
    const { values, positionals } = parseCommandArgs(args, {
      help: { type: 'boolean', short: 'h' },
    });
    const [sub, extra] = positionals;
    if (values.help || sub === 'help' || sub === undefined) {
      (sub === undefined && !values.help ? ctx.stderr : ctx.stdout).write(USAGE);
      return sub === undefined && !values.help ? ExitCode.usage : ExitCode.ok;
    }
    if (sub !== 'run' && sub !== 'start') {
      return usageFailure(ctx, 'gateway', `unknown subcommand '${sub}'`);
    }
    if (extra !== undefined) return usageFailure(ctx, 'gateway', `unexpected argument '${extra}'`);
    const { bundledPluginDirs, runGatewayCommand } = await import('@hermes/runtime');
    return runGatewayCommand({
      hermesHome: ctx.hermesHome,
      env: ctx.env,
      stdout: ctx.stdout,
      stderr: ctx.stderr,
      signals: stopEvents(ctx),
      program: 'hermes gateway',
      // The plugins shipped with the CLI (holographic memory), as `hermes chat` finds them.
      bundledDirs: bundledPluginDirs(import.meta.url),
      ...(ctx.profile ? { deps: { profile: ctx.profile } } : {}),
    });
  });
}
