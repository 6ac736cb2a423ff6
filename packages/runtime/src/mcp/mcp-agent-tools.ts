/**
 * How a hub's tools reach an agent built with `buildAgent`: as its extra `tools`, with each
 * server's toolset (`mcp-<server>`) enabled beside the configured toolsets — the way a plugin's
 * tools come on with the plugin.
 */
import type { McpHub } from '@hermes/mcp';
import type { ToolSpec } from '@hermes/tools';

/** The MCP part of one agent's `buildAgent` options. */
export interface McpAgentTools {
  /** Every exposed tool of every connected server, and the resource / prompt utilities. */
  readonly tools: readonly ToolSpec[];
  /** The toolsets those tools are in: pass as `extraToolsets`. */
  readonly toolsets: readonly string[];
}

/** No MCP tools. */
export const NO_MCP_TOOLS: McpAgentTools = Object.freeze({ tools: [], toolsets: [] });

/**
 * The hub's tools as they stand now. Only toolsets that have tools are named, so a server that
 * failed to connect never names an unknown toolset (which would fail the agent's requests).
 */
export function mcpAgentTools(hub: Pick<McpHub, 'toolSpecs'> | undefined): McpAgentTools {
  if (!hub) return NO_MCP_TOOLS;
  const tools = hub.toolSpecs();
  if (tools.length === 0) return NO_MCP_TOOLS;
  const toolsets = [...new Set(tools.map((tool) => tool.toolset))];
  return { tools, toolsets };
}
