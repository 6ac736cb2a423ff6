/**
 * Dependencies that `dist/hermes.cjs` leaves out and loads only when a run needs them: each is
 * built as its own CommonJS file beside it (`build/lazy-chunks.ts`) and read, through the code
 * cache, the first time the bundle asks for it. They are large and imported dynamically by the
 * one code path that uses them — the Anthropic SDK by the Anthropic adapter, `undici` by the
 * web-fetch tool — so leaving them in the bundle made every start read and decode megabytes of
 * text that most runs never execute.
 */

/** The module ids the bundle asks for by name, with `require`, and the file each is built into. */
export const LAZY_DEPENDENCIES: readonly string[] = [
  '@anthropic-ai/sdk',
  'undici',
  '@hermes/runtime',
  // What plugins import, loaded by the plugin host only when config enables a plugin.
  '@hermes/plugin-sdk',
  // The MCP client and server with the MCP SDK: loaded only when config names an MCP server, or
  // by `hermes mcp`.
  '@hermes/mcp',
  // The job store (SQLite) and croner: loaded only by `hermes cron`.
  '@hermes/cron',
];

/** The file name (in `dist/`) a lazy dependency is built into: `lazy-anthropic-ai-sdk.cjs`. */
export function lazyChunkFile(id: string): string {
  return `lazy-${id.replace(/^@/, '').replace(/[^a-zA-Z0-9.-]+/g, '-')}.cjs`;
}
