/**
 * Connecting configured MCP servers just to see whether they work — `hermes mcp test <name>` and
 * `hermes doctor` — and closing them again. A server disabled in config.yaml is still probed
 * when asked for by name: testing it is how one finds out whether to enable it.
 */
import type { McpServerStatus, McpServersSection } from '@hermes/mcp';
import type { HermesConfig } from '../config/hermes-config.js';
import { SILENT_MCP_LOGGER, startMcpForConfig } from './start-mcp.js';

/** One exposed tool of a probed server. */
export interface McpProbeTool {
  /** The name the model sees (`mcp_<server>_<tool>`). */
  readonly name: string;
  readonly description: string;
}

/** What probing one server found. */
export interface McpServerProbe {
  readonly name: string;
  readonly transport: McpServerStatus['transport'];
  /** Connected and its tools listed. */
  readonly ok: boolean;
  /** Why not, when not `ok`. */
  readonly error?: string;
  /** Milliseconds from start to connected (handshake and tool listing). */
  readonly connectMs?: number;
  /** Milliseconds from the start of the probe until every server was connected or given up. */
  readonly totalMs: number;
  readonly tools: readonly McpProbeTool[];
}

/** Options of {@link probeMcpServers}. */
export interface ProbeMcpOptions {
  /** Only these servers (each probed even when disabled); default every enabled one. */
  readonly names?: readonly string[];
}

function selected(servers: McpServersSection, names: readonly string[] | undefined) {
  if (!names) return servers;
  const picked: Record<string, McpServersSection[string]> = {};
  for (const name of names) {
    const server = servers[name];
    if (server) picked[name] = { ...server, enabled: true };
  }
  return picked;
}

function probeOf(status: McpServerStatus, tools: readonly McpProbeTool[], totalMs: number) {
  const ok = status.state === 'connected';
  return {
    name: status.name,
    transport: status.transport,
    ok,
    ...(ok ? {} : { error: status.error ?? `not connected (${status.state})` }),
    ...(status.connectMs === undefined ? {} : { connectMs: status.connectMs }),
    totalMs,
    tools: ok ? tools : [],
  };
}

/**
 * Connects the servers of `config.mcpServers` (all enabled ones, or `options.names`), lists
 * their tools, and closes them. Resolves to one probe per server, in file order; never rejects
 * for a server that fails. A name not configured is left out (the caller says so).
 */
export async function probeMcpServers(
  config: Pick<HermesConfig, 'mcpServers' | 'env'>,
  options: ProbeMcpOptions = {},
): Promise<McpServerProbe[]> {
  const servers = selected(config.mcpServers ?? {}, options.names);
  const started = performance.now();
  const hub = await startMcpForConfig(config, {
    servers,
    logger: SILENT_MCP_LOGGER,
    maxReconnects: 0,
  });
  if (!hub) return [];
  try {
    const specs = hub.toolSpecs();
    const totalMs = Math.round(performance.now() - started);
    const order = Object.keys(servers);
    const statuses = hub
      .statuses()
      .filter((status) => status.state !== 'disabled')
      .sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
    return statuses.map((status) => {
      const exposed = new Set(status.tools);
      const tools = specs
        .filter((spec) => exposed.has(spec.name))
        .map((spec) => ({ name: spec.name, description: spec.description }));
      return probeOf(status, tools, totalMs);
    });
  } finally {
    await hub.close();
  }
}
