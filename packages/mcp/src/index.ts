/**
 * @packageDocumentation
 * @hermes/mcp — scaffold. Model Context Protocol: connect MCP servers as tool sources, and serve Hermes as an MCP server. See README.md for the planned API.
 */
export {};
