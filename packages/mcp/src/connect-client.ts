/**
 * Opens one MCP session: builds the transport for a server entry, runs the handshake within
 * `connect_timeout`, and for HTTP servers falls back from Streamable HTTP to the older SSE
 * transport when the first attempt is refused.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isStdioConfig, type McpServerConfig } from './config-schema.js';
import { buildStdioEnv } from './stdio-env.js';
import { FilteredStdioTransport } from './stdio-transport.js';

/** The wire a session runs over. */
export type McpTransportKind = 'stdio' | 'http' | 'sse';

/** An open session. */
export interface OpenedClient {
  readonly client: Client;
  readonly transport: Transport;
  readonly kind: McpTransportKind;
}

/** What opening a session needs besides the entry. */
export interface ConnectOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Aborted by close() / reload(): stop connecting. */
  readonly signal?: AbortSignal;
}

/** The client name and version servers see. */
const CLIENT_INFO = { name: 'hermes', version: '0.0.0' };

function newClient(): Client {
  return new Client(CLIENT_INFO, { capabilities: {} });
}

/** The transport kind an entry starts with. */
export function transportKindOf(config: McpServerConfig): McpTransportKind {
  return isStdioConfig(config) ? 'stdio' : 'http';
}

async function handshake(
  client: Client,
  transport: Transport,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer to the MCP handshake within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
  });
  try {
    // The race also covers a transport whose start() itself never settles.
    await Promise.race([
      client.connect(transport, { timeout: timeoutMs, ...(signal ? { signal } : {}) }),
      expired,
    ]);
  } catch (error) {
    await client.close().catch(() => undefined);
    await transport.close().catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Connects to `config`'s server.
 *
 * @throws when the server cannot be started or reached, or does not finish the handshake within
 *   `connect_timeout` (for HTTP: when both Streamable HTTP and SSE fail; the error names both).
 */
export async function connectClient(
  config: McpServerConfig,
  options: ConnectOptions,
): Promise<OpenedClient> {
  const timeoutMs = config.connect_timeout * 1000;
  if (isStdioConfig(config)) {
    const transport = new FilteredStdioTransport({
      command: config.command,
      args: config.args ?? [],
      env: buildStdioEnv(options.env, config.env),
      ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
    });
    const client = newClient();
    try {
      await handshake(client, transport, timeoutMs, options.signal);
    } catch (error) {
      const tail = transport.stderrTail.trim();
      if (tail.length === 0) throw error;
      throw new Error(`${describe(error)} (server stderr: ${tail.slice(-500)})`);
    }
    return { client, transport, kind: 'stdio' };
  }
  const url = new URL(config.url);
  const requestInit = config.headers ? { headers: { ...config.headers } } : undefined;
  const started = Date.now();
  const streamable = new StreamableHTTPClientTransport(url, requestInit ? { requestInit } : {});
  const first = newClient();
  try {
    await handshake(first, streamable, timeoutMs, options.signal);
    return { client: first, transport: streamable, kind: 'http' };
  } catch (streamableError) {
    const left = timeoutMs - (Date.now() - started);
    if (options.signal?.aborted || left <= 0) throw streamableError;
    const sse = new SSEClientTransport(url, requestInit ? { requestInit } : {});
    const second = newClient();
    try {
      await handshake(second, sse, left, options.signal);
      return { client: second, transport: sse, kind: 'sse' };
    } catch (sseError) {
      throw new Error(
        `Streamable HTTP failed (${describe(streamableError)}); SSE fallback failed (${describe(sseError)})`,
      );
    }
  }
}

/** A one-line description of a thrown value. */
export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
