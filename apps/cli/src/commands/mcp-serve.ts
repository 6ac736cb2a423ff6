/**
 * `hermes mcp serve [--http <port>]`: Hermes as an MCP server for editors and other agents —
 * past sessions to list, read and search, and `agent_run` to run a prompt through the agent.
 * Over stdio (the default) stdout carries the protocol, so everything else goes to stderr; over
 * Streamable HTTP it listens on 127.0.0.1 behind a bearer key. `hermes mcp` dispatches here.
 */
import type { Readable, Writable } from 'node:stream';
import { ExitCode } from '@hermes/config';
import type { AgentRunResult, HermesMcpServerDeps, ServeHandle } from '@hermes/mcp';

/** `@hermes/mcp`, imported only when this command runs: the SDK stays out of other commands. */
type McpModule = typeof import('@hermes/mcp');

import type { HermesConfig } from '@hermes/runtime';
import type { SessionStore } from '@hermes/state';
import type { CommandContext } from '../command-context.js';
import { intOption, parseCommandArgs, stringOption, usageFailure } from '../config/command-args.js';
import { VERSION } from '../version.js';

/** The help text; `minKey` is the shortest bearer key accepted. */
const usage = (minKey: number) => `Usage: hermes mcp serve [--http <port>] [--key <key>]

Serves Hermes over the Model Context Protocol with four tools: sessions_list, session_read,
sessions_search (full-text search of past sessions) and agent_run (run one prompt in a new or
given session and return the answer). Commands the agent wants to run that need approval are
denied unless config.yaml allows them (approvals:, or yolo). Stops when the client disconnects
(stdio), or on Ctrl-C / SIGTERM.

  (no option)      stdio: for an MCP client that starts 'hermes mcp serve' itself
  --http <port>    Streamable HTTP at http://127.0.0.1:<port>/mcp (0 picks a free port)
  --key <key>      the bearer key HTTP clients must send (Authorization: Bearer <key>);
                   default MCP_SERVER_KEY from the environment or HERMES_HOME/.env. At least
                   ${minKey} characters. Prefer the variable: a --key shows in the process list.

Example client entry (Claude Desktop, Cursor, another Hermes):
  {"command": "hermes", "args": ["mcp", "serve"]}
`;

/** A line logger on stderr; stdout may be the protocol. */
interface StderrLog {
  warn(message: string): void;
  info(message: string): void;
}

function stderrLog(ctx: CommandContext): StderrLog {
  const line = (message: string) => ctx.stderr.write(`hermes mcp serve: ${message}\n`);
  return { warn: line, info: line };
}

/** Runs one task per key at a time: two `agent_run`s on one session must not interleave turns. */
class KeyedQueue {
  readonly #tails = new Map<string, Promise<unknown>>();

  run<T>(key: string | undefined, task: () => Promise<T>): Promise<T> {
    if (key === undefined) return task();
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const next = previous.then(task, task);
    const tail = next.catch(() => {});
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return next;
  }
}

/** One agent turn, built like `hermes chat -q`'s: platform `mcp`, the single_query surface. */
async function runTurn(
  config: HermesConfig,
  cwd: string,
  prompt: string,
  sessionId: string | undefined,
  signal: AbortSignal | undefined,
): Promise<AgentRunResult> {
  const { buildAgent } = await import('@hermes/runtime');
  const created = buildAgent(config, {
    platform: 'mcp',
    cwd,
    surface: 'single_query',
    ...(sessionId ? { sessionId } : {}),
  });
  const interrupt = () => created.agent.interrupt();
  signal?.addEventListener('abort', interrupt, { once: true });
  try {
    if (signal?.aborted) interrupt();
    const result = await created.agent.runConversation(prompt);
    return {
      answer: result.finalResponse,
      sessionId: result.sessionId,
      exitReason: result.exitReason,
      ...(result.failed ? { failed: true } : {}),
      ...(result.error ? { error: result.error } : {}),
    };
  } finally {
    signal?.removeEventListener('abort', interrupt);
    await created.close();
  }
}

/** The host functions, and `stop()`: interrupt the running turns and wait for them to end. */
interface Host {
  readonly deps: HermesMcpServerDeps;
  stop(): Promise<void>;
}

/** The server's host functions over the session store and the agent. */
function hostFunctions(
  config: HermesConfig,
  store: SessionStore,
  log: StderrLog,
  cwd: string,
): Host {
  const queue = new KeyedQueue();
  const shutdown = new AbortController();
  const running = new Set<Promise<unknown>>();
  const deps: HermesMcpServerDeps = {
    async listSessions({ limit, platform }) {
      const sessions = await store.listSessions({
        limit,
        ...(platform ? { source: platform } : {}),
      });
      return sessions.map((s) => ({
        id: s.id,
        title: s.title,
        platform: s.source,
        startedAt: s.startedAt,
        endedAt: s.endedAt,
        messageCount: s.counters.messages,
      }));
    },
    async readSession(id) {
      if (!(await store.getSession(id))) return undefined;
      const rows = await store.getMessages(id);
      return rows.map((row) => ({ id: row.id, createdAt: row.createdAt, message: row.message }));
    },
    searchSessions: (query, { limit, sessionId }) =>
      store.search(query, { limit, ...(sessionId ? { sessionId } : {}) }),
    async runAgent(prompt, sessionId, signal) {
      if (!config.provider) {
        throw new Error(
          config.providerProblem ?? 'no model provider is configured; run hermes setup',
        );
      }
      if (sessionId !== undefined && !(await store.getSession(sessionId))) {
        throw new Error(`no session '${sessionId}'; see sessions_list`);
      }
      if (shutdown.signal.aborted) throw new Error('the server is stopping');
      const started = Date.now();
      const turnSignal = signal ? AbortSignal.any([signal, shutdown.signal]) : shutdown.signal;
      const turn = queue.run(sessionId, () => runTurn(config, cwd, prompt, sessionId, turnSignal));
      running.add(turn);
      const result = await turn.finally(() => running.delete(turn));
      log.info(
        `agent_run session ${result.sessionId}: ${result.exitReason} in ${Date.now() - started} ms`,
      );
      return result;
    },
  };
  return {
    deps,
    async stop() {
      shutdown.abort();
      await Promise.allSettled([...running]);
    },
  };
}

/** Resolves on Ctrl-C, SIGTERM or `ctx.signal`; the returned function stops listening. */
function stopRequested(ctx: CommandContext): { stopped: Promise<void>; release: () => void } {
  let release: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    ctx.signal?.addEventListener('abort', stop, { once: true });
    if (ctx.signal?.aborted) stop();
    release = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      ctx.signal?.removeEventListener('abort', stop);
    };
  });
  return { stopped, release };
}

/** `ctx.stdout` when it is a real stream (tests pass one), else the process's. */
function protocolOut(ctx: CommandContext): Writable {
  const out = ctx.stdout as Partial<Writable>;
  return typeof out.once === 'function' && typeof out.write === 'function'
    ? (out as Writable)
    : process.stdout;
}

/**
 * Sends console.log / console.info to stderr while stdio serves: anything a dependency prints
 * there would corrupt the protocol stream. Returns the undo.
 */
function consoleToStderr(): () => void {
  const { log, info } = console;
  console.log = console.error;
  console.info = console.error;
  return () => {
    console.log = log;
    console.info = info;
  };
}

/** What the command line asked for. */
interface ServeRequest {
  readonly port?: number;
  readonly key?: string;
}

/** Parses the options; a number is an exit code (help shown, or a usage error). */
function parseServeArgs(
  args: readonly string[],
  ctx: CommandContext,
  mcp: McpModule,
): ServeRequest | number {
  const { values, positionals } = parseCommandArgs(args, {
    help: { type: 'boolean', short: 'h' },
    http: { type: 'string' },
    key: { type: 'string' },
  });
  // `hermes mcp` may pass the word `serve` along; nothing else is positional.
  const extra = positionals.filter((word, i) => !(i === 0 && word === 'serve'));
  if (values.help) {
    ctx.stdout.write(usage(mcp.MIN_SERVER_KEY_LENGTH));
    return ExitCode.ok;
  }
  if (extra[0] !== undefined)
    return usageFailure(ctx, 'mcp serve', `unexpected argument '${extra[0]}'`);
  const port = intOption(values, 'http', 0);
  if (port !== undefined && port > 65_535) {
    return usageFailure(ctx, 'mcp serve', `port ${port} is out of range (0-65535)`);
  }
  const key = stringOption(values, 'key');
  if (key !== undefined && port === undefined) {
    return usageFailure(ctx, 'mcp serve', '--key goes with --http <port>');
  }
  return { ...(port === undefined ? {} : { port }), ...(key === undefined ? {} : { key }) };
}

/** Starts the requested transport; an exit code when it cannot. */
async function startServing(
  mcp: McpModule,
  request: ServeRequest,
  config: HermesConfig,
  deps: HermesMcpServerDeps,
  ctx: CommandContext,
  log: StderrLog,
): Promise<ServeHandle | number> {
  const factory = () => mcp.createHermesMcpServer(deps, { version: VERSION, logger: log });
  if (request.port === undefined) {
    const stdin = (ctx.stdin as Readable | undefined) ?? process.stdin;
    const handle = await mcp.serveStdio(factory(), { stdin, stdout: protocolOut(ctx) });
    log.info('serving on stdin/stdout; stops when the client closes stdin, or on Ctrl-C');
    return handle;
  }
  const key = request.key ?? config.env?.MCP_SERVER_KEY ?? ctx.env.MCP_SERVER_KEY;
  const problem = mcp.serverKeyProblem(key);
  if (problem || key === undefined) {
    return usageFailure(ctx, 'mcp serve', `${problem}: set MCP_SERVER_KEY or pass --key`);
  }
  try {
    const handle = await mcp.serveHttp(factory, { port: request.port, key, logger: log });
    log.info(`listening on ${handle.url} (Streamable HTTP; Authorization: Bearer <key>)`);
    return handle;
  } catch (error) {
    log.warn(`cannot listen on 127.0.0.1:${request.port}: ${(error as Error).message}`);
    return ExitCode.failure;
  }
}

/**
 * Runs `hermes mcp serve …`. `args` are the words after `serve` (a leading `serve` is
 * tolerated). Resolves to the exit code once the server stopped.
 */
export async function runMcpServe(args: readonly string[], ctx: CommandContext): Promise<number> {
  const mcp = await import('@hermes/mcp');
  let request: ServeRequest | number;
  try {
    request = parseServeArgs(args, ctx, mcp);
  } catch (error) {
    return usageFailure(ctx, 'mcp serve', (error as Error).message);
  }
  if (typeof request === 'number') return request;
  const log = stderrLog(ctx);
  const { applyDotenvToProcess, loadHermesConfig } = await import('@hermes/runtime');
  let config: HermesConfig;
  try {
    config = await loadHermesConfig(ctx);
  } catch (error) {
    log.warn((error as Error).message);
    return ExitCode.failure;
  }
  for (const warning of config.warnings) log.warn(`warning: ${warning}`);
  if (!config.provider) log.warn(`agent_run will fail: ${config.providerProblem ?? 'no provider'}`);
  // Keys in HERMES_HOME/.env reach the tools and fallback providers, which read process.env.
  applyDotenvToProcess(config.hermesHome);
  const { openSessionStore } = await import('@hermes/state');
  const store = openSessionStore({ hermesHome: config.hermesHome });
  const { stopped, release } = stopRequested(ctx);
  const restoreConsole = request.port === undefined ? consoleToStderr() : () => {};
  try {
    const host = hostFunctions(config, store, log, process.cwd());
    const handle = await startServing(mcp, request, config, host.deps, ctx, log);
    if (typeof handle === 'number') return handle;
    await Promise.race([handle.closed, stopped]);
    // Turns still running are interrupted (and persisted) before the store closes.
    await Promise.all([handle.close(), host.stop()]);
    return ExitCode.ok;
  } finally {
    release();
    restoreConsole();
    await store.close();
  }
}
