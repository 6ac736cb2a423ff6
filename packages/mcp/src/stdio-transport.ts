/**
 * A stdio client transport that spawns the server with exactly the environment it is given. The
 * SDK's own stdio transport always merges in variables from `process.env` (LOGNAME, HOME, …),
 * which would defeat the filter in `stdio-env.ts`; the framing itself is the SDK's.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** How to start the server process. */
export interface StdioTransportOptions {
  readonly command: string;
  readonly args?: readonly string[];
  /** The complete child environment: nothing else is inherited. */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/** How many characters of the server's stderr are kept for error messages. */
const STDERR_TAIL_CHARS = 2_000;

/** Spawns an MCP server and exchanges newline-delimited JSON-RPC with it. */
export class FilteredStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #options: StdioTransportOptions;
  readonly #buffer = new ReadBuffer();
  #child: ChildProcess | undefined;
  #stderrTail = '';
  #closed = false;

  constructor(options: StdioTransportOptions) {
    this.#options = options;
  }

  /** The last part of what the server wrote to stderr (for "why did it die"). */
  get stderrTail(): string {
    return this.#stderrTail;
  }

  /** The child's pid once started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Spawns the process; resolves once it runs, rejects when it cannot be started. */
  start(): Promise<void> {
    if (this.#child) throw new Error('FilteredStdioTransport already started');
    return new Promise((resolve, reject) => {
      const child = spawn(this.#options.command, [...(this.#options.args ?? [])], {
        env: { ...this.#options.env },
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        ...(this.#options.cwd === undefined ? {} : { cwd: this.#options.cwd }),
      });
      this.#child = child;
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => resolve());
      child.once('close', () => this.#finish());
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => this.#receive(chunk));
      child.stderr?.on('data', (chunk: Buffer) => {
        this.#stderrTail = (this.#stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
      });
    });
  }

  #receive(chunk: Buffer): void {
    this.#buffer.append(chunk);
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.#buffer.readMessage();
      } catch (error) {
        // A non-JSON line (a server logging to stdout) is reported, not fatal.
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#child = undefined;
    this.#buffer.clear();
    this.onclose?.();
  }

  /** Writes one message; rejects when the process is gone. */
  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin || stdin.destroyed) return Promise.reject(new Error('Not connected'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', () => resolve());
    });
  }

  /** Ends stdin, then SIGTERM after 2 s and SIGKILL after 2 more, as the MCP spec suggests. */
  async close(): Promise<void> {
    const child = this.#child;
    if (!child) return;
    const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const within = (ms: number) =>
      Promise.race([exited, new Promise<void>((r) => setTimeout(r, ms).unref())]);
    child.stdin?.end();
    await within(2_000);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await within(2_000);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    this.#finish();
  }
}
