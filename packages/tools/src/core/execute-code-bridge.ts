/**
 * The parent side of `execute_code`'s RPC bridge: a Unix socket server that answers a script's
 * tool calls by dispatching them, enforcing the whitelist and the per-run call limit.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { z } from 'zod';

/** Runs one tool call for the script; resolves to the tool's result text. */
export type BridgeDispatch = (name: string, args: Record<string, unknown>) => Promise<string>;

const RequestSchema = z.object({
  id: z.number().int(),
  tool: z.string(),
  args: z.record(z.string(), z.unknown()).default({}),
});

/** A running bridge. */
export interface Bridge {
  /** Tool calls answered (allowed or not) so far. */
  readonly calls: () => number;
  readonly close: () => Promise<void>;
}

interface BridgeOptions {
  readonly socketPath: string;
  readonly allowed: ReadonlySet<string>;
  readonly maxCalls: number;
  readonly dispatch: BridgeDispatch;
}

async function answer(line: string, options: BridgeOptions, count: () => number): Promise<string> {
  let parsed: z.infer<typeof RequestSchema>;
  try {
    parsed = RequestSchema.parse(JSON.parse(line));
  } catch {
    return JSON.stringify({ id: -1, error: 'malformed bridge request' });
  }
  const { id, tool, args } = parsed;
  if (!options.allowed.has(tool)) {
    const list = [...options.allowed].join(', ');
    return JSON.stringify({
      id,
      error: `tool "${tool}" is not available in execute_code; allowed: ${list}`,
    });
  }
  if (count() > options.maxCalls) {
    return JSON.stringify({
      id,
      error: `tool-call limit reached (${options.maxCalls} per execute_code run)`,
    });
  }
  try {
    return JSON.stringify({ id, result: await options.dispatch(tool, args) });
  } catch (error) {
    return JSON.stringify({ id, error: error instanceof Error ? error.message : String(error) });
  }
}

/** Starts the bridge on `options.socketPath`. */
export async function startBridge(options: BridgeOptions): Promise<Bridge> {
  let calls = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.setEncoding('utf8');
    let buffer = '';
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        calls += 1;
        const seen = calls;
        void answer(line, options, () => seen).then((reply) => {
          if (!socket.destroyed) socket.write(`${reply}\n`);
        });
      }
    });
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.socketPath, () => resolve());
  });
  return {
    calls: () => calls,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
