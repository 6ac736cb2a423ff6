/** Starts server-everything as an HTTP child process on a free 127.0.0.1 port for a test. */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createConnection, createServer } from 'node:net';
import { EVERYTHING_BIN } from './helpers.js';

/** A running HTTP server child. */
export interface HttpServerChild {
  readonly port: number;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  probe.close();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Waits until the port accepts connections: the server's own readiness signal. */
async function untilListening(
  port: number,
  child: ChildProcess,
  deadlineMs: number,
): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!(await accepts(port))) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`server did not listen on ${port}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Starts `mcp-server-everything <mode>` (`streamableHttp` or `sse`), on `fixedPort` when given. */
export async function startEverythingHttp(
  mode: 'streamableHttp' | 'sse',
  fixedPort?: number,
): Promise<HttpServerChild> {
  const port = fixedPort ?? (await freePort());
  const child = spawn(EVERYTHING_BIN, [mode], {
    env: { PATH: process.env.PATH ?? '', PORT: String(port) },
    stdio: 'ignore',
  });
  await untilListening(port, child, 15_000);
  return {
    port: port,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
  };
}
