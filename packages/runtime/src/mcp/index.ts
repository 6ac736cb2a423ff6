/** MCP servers in Hermes' hosts: starting them from config, their tools in agents, probes, edits. */
export * from './mcp-agent-tools.js';
export * from './mcp-config-edit.js';
export * from './mcp-probe.js';
export * from './mcp-registry-sync.js';
export * from './start-mcp.js';
