/** Hermes as an MCP server: the tools, and serving them over stdio or Streamable HTTP. */
export * from './bearer-key.js';
export * from './hermes-mcp-server.js';
export * from './serve-http.js';
export * from './serve-stdio.js';
export * from './server-deps.js';
