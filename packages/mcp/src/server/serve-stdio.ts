/**
 * Serving an MCP server over stdio: JSON-RPC lines on stdin and stdout, as an editor or another
 * agent that spawns `hermes mcp serve` expects. Stdout then belongs to the protocol; the host
 * must log to stderr only.
 */
import type { Readable, Writable } from 'node:stream';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

/** A running server. */
export interface ServeHandle {
  /** Settles once the server stopped: the client went away, or {@link ServeHandle.close}. */
  readonly closed: Promise<void>;
  /** Stops serving; resolves when the server is closed. Safe to call more than once. */
  close(): Promise<void>;
}

/** Streams of {@link serveStdio}; default the process's own. */
export interface ServeStdioOptions {
  readonly stdin?: Readable;
  readonly stdout?: Writable;
}

/**
 * Connects `server` to stdin/stdout and resolves once it is listening. The server stops when
 * stdin ends (the client closed its end or exited), which the SDK's transport does not watch.
 */
export async function serveStdio(
  server: McpServer,
  options: ServeStdioOptions = {},
): Promise<ServeHandle> {
  const stdin = options.stdin ?? process.stdin;
  const transport = new StdioServerTransport(stdin, options.stdout ?? process.stdout);
  let markClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    if (closing) return closing;
    // Set before server.close() runs: it closes the transport synchronously, whose onclose
    // lands here again.
    let done: () => void = () => {};
    closing = new Promise<void>((resolve) => {
      done = resolve;
    });
    stdin.off('end', onEnd);
    stdin.off('close', onEnd);
    server
      .close()
      .catch(() => {})
      .finally(() => {
        markClosed();
        done();
      });
    return closing;
  };
  const onEnd = (): void => {
    void close();
  };
  stdin.once('end', onEnd);
  stdin.once('close', onEnd);
  transport.onclose = onEnd;
  await server.connect(transport);
  return { closed, close };
}
