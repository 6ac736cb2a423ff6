/**
 * `hermes-gateway run` and `hermes gateway run` as one call: load the configuration and the
 * plugins it asks for, build the gateway, start it, print where each adapter listens, serve until SIGTERM/SIGINT, drain, and
 * resolve to the exit code. It never calls `process.exit`: the binary does, with the code.
 */
import { existsSync } from 'node:fs';
import type { TextSink } from '@hermes/config';
import { isHermesError } from '@hermes/protocol';
import type { HermesConfig } from '../config/hermes-config.js';
import { loadHermesConfig } from '../config/load-config.js';
import type { Logger } from '../logging/logger.js';
import { startMcpForConfig } from '../mcp/start-mcp.js';
import type { PluginHostLogger } from '../plugins/host-logger.js';
import { type GatewayStorage, openGatewayStorage } from '../storage/gateway-storage.js';
import { usesPostgres } from '../storage/postgres-connection.js';
import {
  buildGatewayServer,
  createGatewayLog,
  type GatewayServer,
  type GatewayServerDeps,
} from './build-gateway-server.js';
import { listeningUrl } from './gateway-adapters.js';
import { loadGatewayPlugins } from './gateway-plugins.js';
import { type ProcessEvents, type StopReason, StopWatch, signalExitCode } from './stop-events.js';

/** What {@link runGatewayCommand} takes. */
export interface RunGatewayOptions {
  /** The data home, the profile already applied (`HERMES_HOME/profiles/<name>`). */
  readonly hermesHome: string;
  /**
   * The config file (`--config`); default `HERMES_HOME/config.yaml`. `.env` and every other
   * file still come from `hermesHome`. A path that does not exist is refused with exit 2.
   */
  readonly configPath?: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdout: TextSink;
  readonly stderr: TextSink;
  /** SIGTERM/SIGINT and uncaught errors; default `process`. */
  readonly signals?: ProcessEvents;
  /** The name messages start with. Default `hermes-gateway`. */
  readonly program?: string;
  /** Passed to the build (the profile's name, the agents' working directory). */
  readonly deps?: GatewayServerDeps;
  /**
   * The folders of the plugins the app ships (`bundledPluginDirs(import.meta.url)`), loaded
   * like any other plugin when config.yaml enables or selects one.
   */
  readonly bundledDirs?: readonly string[];
  /** The project folder whose `.hermes/plugins/` may hold plugins; default `process.cwd()`. */
  readonly cwd?: string;
}

/** Exit codes of {@link runGatewayCommand}. */
export const GatewayExit = { ok: 0, failure: 1, config: 2 } as const;

/**
 * Runs the gateway until it is stopped and resolves to the exit code:
 * - `0` after SIGTERM or SIGINT and a drain (running turns finish, up to
 *   `gateway.drain_timeout_seconds`, then are interrupted);
 * - `130` / `143` when a second SIGINT / SIGTERM arrives during the drain (the drain is left
 *   running; the binary exits at once);
 * - `1` when an error nothing caught ends the run (logged, then the same drain), or no adapter
 *   could start;
 * - `2` for a configuration the gateway cannot run: a broken config.yaml (its validation
 *   message), no enabled adapter (how to enable the API server), an unusable API key, a bad
 *   `platforms.<name>` entry, no model provider, a `memory.provider` / `context.engine` no
 *   plugin provides (naming the available ones).
 *
 * The plugins config.yaml enables or selects are loaded, and its MCP servers started, before the
 * build; each problem (a server that did not connect, a plugin
 * that did not load, a plugin platform that could not be created) is said once on stderr and
 * written to `gateway.log`.
 */
export async function runGatewayCommand(options: RunGatewayOptions): Promise<number> {
  const program = options.program ?? 'hermes-gateway';
  const say = (line: string) => options.stdout.write(`${line}\n`);
  const complain = (line: string) => options.stderr.write(`${program}: ${line}\n`);
  // A missing default config.yaml reads as empty (the env may carry everything); a file the
  // operator named must exist, or a typo would start a gateway on defaults.
  if (options.configPath !== undefined && !existsSync(options.configPath)) {
    complain(`--config ${options.configPath}: no such file; give the path of a config.yaml.`);
    return GatewayExit.config;
  }
  const watch = new StopWatch(options.signals ?? (process as unknown as ProcessEvents));
  try {
    const built = await build(options, complain);
    if (typeof built === 'number') return built;
    return await serve(built, watch, say, complain);
  } finally {
    watch.dispose();
  }
}

async function build(
  options: RunGatewayOptions,
  complain: (line: string) => void,
): Promise<GatewayServer | number> {
  let config: HermesConfig;
  try {
    config = await loadHermesConfig({
      hermesHome: options.hermesHome,
      env: options.env,
      ...(options.configPath === undefined ? {} : { configPath: options.configPath }),
    });
    for (const warning of config.warnings) complain(`warning: ${warning}`);
    const deps = options.deps ?? {};
    const log = deps.log ?? createGatewayLog(config, deps.logLevel);
    const plugins =
      deps.plugins ??
      (await loadGatewayPlugins(config, {
        cwd: options.cwd ?? process.cwd(),
        logger: pluginLogger(log, complain),
        ...(options.bundledDirs ? { bundledDirs: options.bundledDirs } : {}),
      }));
    const mcp =
      deps.mcp ?? (await startMcpForConfig(config, { logger: pluginLogger(log, complain) }));
    let storage: GatewayStorage | undefined;
    try {
      storage = deps.storage ?? (await openStorage(config));
      const server = buildGatewayServer(config, {
        ...deps,
        log,
        plugins,
        ...(mcp ? { mcp } : {}),
        ...(storage ? { storage } : {}),
      });
      for (const warning of server.warnings) complain(`warning: ${warning}`);
      return server;
    } catch (error) {
      await storage?.close();
      await mcp?.close();
      throw error;
    }
  } catch (error) {
    if (!isHermesError(error)) throw error;
    complain(error.message);
    return GatewayExit.config;
  }
}

/** The shared stores when `storage:` selects PostgreSQL; nothing for SQLite. */
async function openStorage(config: HermesConfig): Promise<GatewayStorage | undefined> {
  if (!usesPostgres(config)) return undefined;
  return openGatewayStorage(config, {
    maxConcurrentTurns: config.gateway.maxConcurrentTurns,
    pairingCodeTtlMs: config.gateway.pairing.codeTtlMs,
  });
}

/** The plugin host's reports: into `gateway.log`, and problems on stderr too. */
function pluginLogger(log: Logger, complain: (line: string) => void): PluginHostLogger {
  return {
    debug: (message) => log.debug(message),
    info: (message) => log.info(message),
    warn: (message) => {
      log.warn(message);
      complain(`warning: ${message}`);
    },
    error: (message) => {
      log.error(message);
      complain(message);
    },
  };
}

async function serve(
  server: GatewayServer,
  watch: StopWatch,
  say: (line: string) => void,
  complain: (line: string) => void,
): Promise<number> {
  const { gateway, log } = server;
  try {
    await server.start();
  } catch (error) {
    log.error('gateway: start failed', { error });
    watch.stop({ kind: 'error', error });
  }
  let connected = 0;
  for (const adapter of gateway.health().adapters) {
    const built = server.adapters.find((candidate) => candidate.platform === adapter.platform);
    if (adapter.connected) {
      connected += 1;
      const url = built ? listeningUrl(built) : undefined;
      say(url ? `${adapter.platform} listening on ${url}` : `${adapter.platform} connected`);
    } else {
      complain(`${adapter.platform} failed to start: ${adapter.error ?? 'unknown error'}`);
    }
  }
  if (connected === 0) {
    watch.stop({ kind: 'error', error: new Error('no adapter could start') });
  } else {
    say(
      `gateway ready (${connected} adapter${connected === 1 ? '' : 's'}); SIGTERM or Ctrl-C stops it`,
    );
  }
  const reason = await watch.stopped;
  return drain(server, watch, reason, say, complain);
}

async function drain(
  server: GatewayServer,
  watch: StopWatch,
  reason: StopReason,
  say: (line: string) => void,
  complain: (line: string) => void,
): Promise<number> {
  const { log } = server;
  const code = reason.kind === 'signal' ? GatewayExit.ok : GatewayExit.failure;
  if (reason.kind === 'signal') {
    log.info('gateway: draining', { signal: reason.signal });
    say(`${reason.signal} received: draining running turns (a second signal exits at once)`);
  } else {
    log.error('gateway: stopping after an error', { error: reason.error });
    complain(`stopping after an error: ${describe(reason.error)}`);
  }
  const closed = server.close().then(
    () => code,
    (error: unknown) => {
      log.error('gateway: drain failed', { error });
      complain(`drain failed: ${describe(error)}`);
      return GatewayExit.failure;
    },
  );
  const forced = watch.signalledAgain.then((signal) => {
    log.warn('gateway: second signal during the drain; exiting at once', { signal });
    complain(`${signal} received again: exiting without waiting for the drain`);
    return signalExitCode(signal);
  });
  const exit = await Promise.race([closed, forced]);
  for (const error of watch.lateErrors) log.error('gateway: error during the drain', { error });
  if (exit === code && code === GatewayExit.ok) say('gateway stopped');
  return exit;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
