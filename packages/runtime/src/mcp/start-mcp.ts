/**
 * Starting the MCP servers config.yaml names, for any host (the CLI's chat, `hermes mcp test`,
 * `hermes doctor`). `@hermes/mcp` — and with it the MCP SDK — is imported only when at least one
 * server is enabled, so a configuration without MCP pays nothing for it.
 */
import type { McpHub, McpServersSection } from '@hermes/mcp';
import type { HermesConfig } from '../config/hermes-config.js';

/** Where the hub reports connection problems (once per server) and reconnects. */
export interface McpHostLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** A logger that drops everything (probes report through their result instead). */
export const SILENT_MCP_LOGGER: McpHostLogger = Object.freeze({
  info: () => {},
  warn: () => {},
  error: () => {},
});

/** Options of {@link startMcpForConfig}. */
export interface StartMcpOptions {
  readonly logger?: McpHostLogger;
  /** Servers to start instead of `config.mcpServers` (`/reload-mcp` re-reads config.yaml). */
  readonly servers?: McpServersSection;
  /** Reconnect attempts after a server drops (the hub's default: 5). */
  readonly maxReconnects?: number;
  /** The first reconnect delay in ms (tests shorten it). */
  readonly reconnectBaseMs?: number;
}

/** The names of the servers in `servers` that are enabled, in file order. */
export function enabledMcpServers(servers: McpServersSection | undefined): string[] {
  return Object.entries(servers ?? {})
    .filter(([, server]) => server.enabled !== false)
    .map(([name]) => name);
}

/**
 * A hub for the enabled servers of `config.mcpServers` (or `options.servers`), started: every
 * server connected, failed, or past its `connect_timeout`. Resolves to undefined — importing
 * nothing — when no server is enabled. Never rejects for a server that fails to connect: the
 * hub reports it through `options.logger` and its status.
 */
export async function startMcpForConfig(
  config: Pick<HermesConfig, 'mcpServers' | 'env'>,
  options: StartMcpOptions = {},
): Promise<McpHub | undefined> {
  const servers = options.servers ?? config.mcpServers;
  if (servers === undefined || enabledMcpServers(servers).length === 0) return undefined;
  const { McpHub: Hub } = await import('@hermes/mcp');
  const hub = new Hub({
    servers,
    ...(config.env ? { env: config.env } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.maxReconnects === undefined ? {} : { maxReconnects: options.maxReconnects }),
    ...(options.reconnectBaseMs === undefined ? {} : { reconnectBaseMs: options.reconnectBaseMs }),
  });
  await hub.start();
  return hub;
}
