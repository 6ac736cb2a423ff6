/**
 * `hermes chat` (and bare `hermes`): the interactive session, or one question with `-q`. This
 * module stays light — the agent, providers and SQLite load only once a conversation starts.
 */
import { ExitCode, isUsageError } from '@hermes/config';
import {
  type AgentPluginParts,
  applyDotenvToProcess,
  type HermesConfig,
  loadHermesConfig,
  openSessionStoreFor,
  usesPostgres,
} from '@hermes/runtime';
import type { SessionStore } from '@hermes/state';
import { CHAT_USAGE, type ChatOptions, parseChatOptions } from '../chat/chat-options.js';
import type { CommandContext } from '../command-context.js';
import type { Logger } from '../logging/logger.js';
import { traceStartup } from '../startup-trace.js';

/** Runs the command; resolves to the exit code. */
export async function run(args: readonly string[], ctx: CommandContext): Promise<number> {
  let options: ChatOptions;
  try {
    options = parseChatOptions(args);
  } catch (error) {
    if (!isUsageError(error)) throw error;
    ctx.stderr.write(`hermes chat: ${error.message}\nRun 'hermes chat --help' for usage.\n`);
    return ExitCode.usage;
  }
  if (options.help) {
    ctx.stdout.write(CHAT_USAGE);
    return ExitCode.ok;
  }
  let config: HermesConfig;
  try {
    config = await loadHermesConfig(ctx, options.flags);
  } catch (error) {
    ctx.stderr.write(`hermes: ${(error as Error).message}\n`);
    return ExitCode.failure;
  }
  traceStartup('configuration loaded');
  for (const warning of config.warnings) ctx.stderr.write(`hermes: warning: ${warning}\n`);
  if (!config.provider) {
    ctx.stderr.write(
      `hermes: ${config.providerProblem ?? 'No model provider is configured. Run `hermes setup`.'}\n`,
    );
    return ExitCode.failure;
  }
  const sessionId = await pickSession(options, config, ctx);
  if (sessionId === null) return ExitCode.failure;
  // Keys in HERMES_HOME/.env reach the tools and fallback providers, which read process.env.
  applyDotenvToProcess(config.hermesHome);
  const log = await chatLogger(config);
  traceStartup('logger ready');
  const cwd = process.cwd();
  const env = ctx.env;
  const { chatPluginParts } = await import('../chat/chat-plugins.js');
  const plugins = await chatPluginParts(config, { cwd, stderr: ctx.stderr, log });
  if ('error' in plugins) {
    ctx.stderr.write(`hermes: ${plugins.error}\n`);
    return ExitCode.failure;
  }
  traceStartup('plugins ready');
  const store = await sharedStore(config);
  try {
    return await talk(options, { config, cwd, env, log, plugins, store, sessionId }, ctx);
  } finally {
    await store?.close();
  }
}

/** What {@link talk} runs with. */
interface TalkSetup {
  readonly config: HermesConfig;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly log: Logger;
  readonly plugins: AgentPluginParts;
  readonly store: SessionStore | undefined;
  readonly sessionId: string | undefined;
}

/** The PostgreSQL session store `storage:` selects, shared by the chat's agents; else none. */
async function sharedStore(config: HermesConfig): Promise<SessionStore | undefined> {
  return usesPostgres(config) ? openSessionStoreFor(config, 'hermes-chat') : undefined;
}

/** One question (`-q`) or the REPL. */
async function talk(options: ChatOptions, setup: TalkSetup, ctx: CommandContext): Promise<number> {
  const { config, cwd, env, log, plugins, store, sessionId } = setup;
  if (options.query !== undefined) {
    const { runSingleQuery } = await import('../chat/single-query.js');
    return runSingleQuery({
      config,
      query: options.query,
      json: options.json,
      quiet: options.quiet,
      cwd,
      stdout: ctx.stdout,
      stderr: ctx.stderr,
      env,
      log,
      plugins,
      ...(store ? { store } : {}),
      ...(sessionId ? { sessionId } : {}),
    });
  }
  const { startRepl } = await import('../chat/start-repl.js');
  return startRepl({
    config,
    cwd,
    stdin: ctx.stdin ?? process.stdin,
    stdout: ctx.stdout,
    stderr: ctx.stderr,
    env,
    log,
    plugins,
    ...(store ? { store } : {}),
    ...(sessionId ? { sessionId } : {}),
  });
}

/** The rotating log in HERMES_HOME/logs, told the configured key so it is masked. */
async function chatLogger(config: HermesConfig): Promise<Logger> {
  const { createLogger } = await import('../logging/logger.js');
  const apiKey = config.provider?.apiKey;
  return createLogger({
    hermesHome: config.hermesHome,
    component: 'chat',
    ...(apiKey ? { secrets: [apiKey] } : {}),
  });
}

/** The session to continue: undefined for a new one, null when the named one does not exist. */
async function pickSession(
  options: ChatOptions,
  config: HermesConfig,
  ctx: CommandContext,
): Promise<string | undefined | null> {
  if (options.resume === undefined && !options.continueLatest) return undefined;
  const { findSession, latestSession } = await import('../chat/session-lookup.js');
  const store = await openSessionStoreFor(config, 'hermes-chat');
  try {
    const found =
      options.resume !== undefined
        ? await findSession(store, options.resume)
        : await latestSession(store);
    if (found) return found.id;
    ctx.stderr.write(
      options.resume !== undefined
        ? `hermes: no session matches '${options.resume}'; list them with 'hermes sessions list'.\n`
        : 'hermes: there is no earlier session to continue.\n',
    );
    return null;
  } finally {
    await store.close();
  }
}
