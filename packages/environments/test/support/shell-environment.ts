/**
 * A minimal ExecutionEnvironment for tests: each command is a real `/bin/sh -c` subprocess in
 * its own process group, killed as a group on timeout, abort or cleanup.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import {
  EnvironmentConnectionError,
  type ExecuteOptions,
  type ExecuteResult,
  ExecutionEnvironment,
} from '../../src/index.js';

export interface ShellEnvironmentOptions {
  /** The working directory of commands that name none. Default: `process.cwd()`. */
  readonly cwd?: string;
  /** Minimum milliseconds between two activity callbacks of one command. Default 1,000. */
  readonly activityIntervalMs?: number;
}

export class ShellEnvironment extends ExecutionEnvironment {
  readonly name = 'test-shell';
  readonly #cwd: string;
  readonly #activityIntervalMs: number;
  readonly #running = new Set<ChildProcess>();
  #closed = false;

  constructor(options: ShellEnvironmentOptions = {}) {
    super();
    this.#cwd = options.cwd ?? process.cwd();
    this.#activityIntervalMs = options.activityIntervalMs ?? 1_000;
  }

  execute(command: string, options: ExecuteOptions = {}): Promise<ExecuteResult> {
    if (this.#closed) {
      return Promise.reject(
        new EnvironmentConnectionError('this environment has been cleaned up', {
          retryHint: 'start a new session to get a fresh environment',
          retryable: false,
        }),
      );
    }
    const cwd = options.cwd ?? this.#cwd;
    const { signal, timeoutMs, onActivity } = options;
    if (signal?.aborted) {
      return Promise.resolve({
        output: '',
        exitCode: null,
        timedOut: false,
        interrupted: true,
        cwd,
      });
    }
    return new Promise((resolve) => {
      const started = Date.now();
      let output = '';
      let timedOut = false;
      let interrupted = false;
      let lastActivity = 0;
      const child = spawn('/bin/sh', ['-c', command], {
        cwd,
        env: { ...process.env, ...options.env },
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      this.#running.add(child);
      const killGroup = (): void => killProcessGroup(child);
      const timer =
        timeoutMs === undefined
          ? undefined
          : setTimeout(() => {
              timedOut = true;
              killGroup();
            }, timeoutMs);
      const onAbort = (): void => {
        interrupted = true;
        killGroup();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const collect = (chunk: string): void => {
        output += chunk;
        const now = Date.now();
        if (onActivity && now - lastActivity >= this.#activityIntervalMs) {
          lastActivity = now;
          const line = chunk.trimEnd().split('\n').pop() ?? '';
          try {
            onActivity({ elapsedMs: now - started, message: line });
          } catch {
            // An observer can never break a command.
          }
        }
      };
      child.stdout?.setEncoding('utf8').on('data', collect);
      child.stderr?.setEncoding('utf8').on('data', collect);
      child.stdin?.on('error', () => {
        // The command may exit without reading its input; that is not an error.
      });
      child.stdin?.end(options.stdin ?? '');
      const finish = (result: Omit<ExecuteResult, 'cwd' | 'timedOut' | 'interrupted'>): void => {
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.#running.delete(child);
        resolve({ ...result, timedOut, interrupted, cwd });
      };
      child.once('error', (error) => {
        finish({ output: `${output}cannot start the command: ${error.message}\n`, exitCode: 126 });
      });
      child.once('close', (code) => finish({ output, exitCode: code }));
    });
  }

  async cleanup(): Promise<void> {
    this.#closed = true;
    for (const child of this.#running) killProcessGroup(child);
    this.#running.clear();
  }
}

/** Kills the whole process group led by `child`: the shell and everything it started. */
function killProcessGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
