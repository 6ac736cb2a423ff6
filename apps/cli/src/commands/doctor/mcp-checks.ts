/**
 * The MCP line of `hermes doctor`: every enabled server connected as `hermes chat` would, one
 * line each — its tool count and connect time, or its error. Local stdio servers are local, so
 * this runs with `--offline` too. A server that fails is a warning: chat goes on without it.
 */
import { enabledMcpServers, type HermesConfig, probeMcpServers } from '@hermes/runtime';
import type { CheckResult } from './check-result.js';

/** Connects the enabled MCP servers of `config`, then disconnects; one line per server. */
export async function checkMcpServers(config: HermesConfig): Promise<CheckResult> {
  const enabled = enabledMcpServers(config.mcpServers);
  if (enabled.length === 0) {
    const configured = Object.keys(config.mcpServers ?? {}).length;
    const detail =
      configured === 0 ? 'no servers configured' : `${configured} configured, none enabled`;
    return { name: 'mcp', status: 'ok', detail };
  }
  const probes = await probeMcpServers(config);
  const lines = probes.map((probe) =>
    probe.ok
      ? `${probe.name}: ${probe.tools.length} tool${probe.tools.length === 1 ? '' : 's'} (connected in ${probe.connectMs ?? probe.totalMs} ms)`
      : `${probe.name}: failed — ${probe.error}`,
  );
  const failed = probes.filter((probe) => !probe.ok).map((probe) => probe.name);
  if (failed.length === 0) return { name: 'mcp', status: 'ok', detail: lines.join('\n') };
  return {
    name: 'mcp',
    status: 'warn',
    detail: lines.join('\n'),
    fix: `see 'hermes mcp test ${failed[0]}'; fix the server's entry, or set mcp_servers.${failed[0]}.enabled: false`,
  };
}
