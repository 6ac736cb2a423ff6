/**
 * The `node:http` server both HTTP adapters (api_server, webhook) run: listen on the configured
 * host and port (0: a free one), report the bound address, log late server errors, and close
 * with every connection dropped.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AdapterLog } from './adapter-log.js';

/** A listening server and where it listens. */
export interface HttpListener {
  readonly server: Server;
  readonly address: { readonly host: string; readonly port: number };
}

/**
 * Starts a server for `serve` on `host:port`; rejects when it cannot listen (port in use).
 * `name` prefixes its log lines (`api_server: listening`).
 */
export async function listenHttp(
  name: string,
  where: { readonly host: string; readonly port: number },
  serve: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  log: AdapterLog,
): Promise<HttpListener> {
  const server = createServer((req, res) => {
    void serve(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(where.port, where.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error) => log.error(`${name}: server error`, { error: error.message }));
  const { port } = server.address() as AddressInfo;
  log.info(`${name}: listening`, { host: where.host, port });
  return { server, address: { host: where.host, port } };
}

/** Stops accepting and drops every open connection; resolves once the server is closed. */
export async function closeHttp(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await closed;
}
