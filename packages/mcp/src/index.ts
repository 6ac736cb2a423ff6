/**
 * @packageDocumentation
 * @hermes/mcp — the Model Context Protocol client: connect MCP servers (stdio, Streamable HTTP,
 * SSE) and expose their tools, resources and prompts as Hermes tools. See README.md.
 */
export * from './approval-gate.js';
export * from './config-schema.js';
export type { McpTransportKind } from './connect-client.js';
export * from './hub.js';
export * from './result-text.js';
export * from './server/index.js';
export type { McpLogger, McpServerState } from './server-connection.js';
export { mcpToolsetName } from './server-tool-specs.js';
export * from './stdio-env.js';
export * from './tool-filter.js';
export { MAX_TOOL_NAME_LENGTH, mcpToolName, sanitizeToolName } from './tool-naming.js';
export { UTILITY_ACTIONS, type UtilityAction } from './utility-tools.js';
