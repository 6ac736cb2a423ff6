/**
 * @packageDocumentation
 * `@hermes/mcp/config`: the `mcp_servers:` schema alone, for config loaders that validate the
 * section without loading the MCP client and its SDK (the main entry imports both).
 */
export * from './config-schema.js';
