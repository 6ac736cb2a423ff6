/**
 * The shared body of every backend that runs a POSIX shell as a child process (local, sandbox,
 * ssh, docker): working directory persistence, bounded output with spill, timeouts and aborts
 * that kill the whole process group, the activity heartbeat, and cleanup.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { BackgroundLaunch, BackgroundStartOptions } from './background-launch.js';
import type { EnvironmentDescription } from './description.js';
import { EnvironmentConnectionError } from './errors.js';
import type { ExecuteOptions, ExecuteResult } from './execute.js';
import { ExecutionEnvironment } from './execution-environment.js';
import { BoundedOutputCollector } from './output-collector.js';
import { DEFAULT_KILL_GRACE_MS } from './process-group.js';
import { type ProcessOutcome, watchProcess } from './run-process.js';
import { buildScript } from './shell-script.js';
import { hostStorageDir } from './storage.js';

/** Options every process-based backend accepts. */
export interface ProcessEnvironmentOptions {
  /** Where the first command runs; later ones start where the previous one ended. */
  readonly cwd?: string;
  /** Hermes home; spill files go under `<hermesHome>/sandboxes`. Default `$HERMES_HOME`. */
  readonly hermesHome?: string;
  /** Timeout of a command that names none, in ms. Default 180,000. */
  readonly defaultTimeoutMs?: number;
  /** The most characters of output a result carries. Default 50,000. */
  readonly maxOutputChars?: number;
  /** Variables added to every command's environment. */
  readonly env?: Readonly<Record<string, string>>;
  /** Minimum ms between two activity callbacks of one command. Default 10,000. */
  readonly activityIntervalMs?: number;
  /** Ms between SIGTERM and SIGKILL of a stopped command. Default 50. */
  readonly killGraceMs?: number;
}

/** A started wrapper shell, plus how to kill its process group. */
export interface LaunchedShell {
  readonly child: ChildProcess;
  /** Kills the command's process group; `pid` is the pid the wrapper reported, if any. */
  readonly kill: (pid: number | undefined) => Promise<void>;
}

/** Defaults shared by the backends. */
export const DEFAULT_TIMEOUT_MS = 180_000;
export const DEFAULT_MAX_OUTPUT_CHARS = 50_000;
const DEFAULT_ACTIVITY_INTERVAL_MS = 10_000;
const DRAIN_MS = 150;

let spillCounter = 0;

/**
 * Base class of the shell-process backends. A subclass only says how to start `sh -c <script>`
 * in its world ({@link ProcessEnvironment.launch}) and how to kill what it started.
 */
export abstract class ProcessEnvironment extends ExecutionEnvironment {
  /** The host directory for this environment's files (spill files, scratch space). */
  readonly storageDir: string;
  protected readonly marker = `__HERMES_${randomBytes(8).toString('hex')}__`;
  protected readonly defaultTimeoutMs: number;
  protected readonly maxOutputChars: number;
  protected readonly extraEnv: Readonly<Record<string, string>>;
  protected readonly killGraceMs: number;
  readonly #activityIntervalMs: number;
  readonly #running = new Set<LaunchedShell>();
  #cwd: string;
  #closed = false;

  constructor(options: ProcessEnvironmentOptions, initialCwd: string) {
    super();
    this.#cwd = options.cwd ?? initialCwd;
    this.storageDir = hostStorageDir(options.hermesHome);
    this.defaultTimeoutMs = positive(
      options.defaultTimeoutMs,
      DEFAULT_TIMEOUT_MS,
      'defaultTimeoutMs',
    );
    this.maxOutputChars = positive(
      options.maxOutputChars,
      DEFAULT_MAX_OUTPUT_CHARS,
      'maxOutputChars',
    );
    this.extraEnv = { ...options.env };
    this.killGraceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
    this.#activityIntervalMs = options.activityIntervalMs ?? DEFAULT_ACTIVITY_INTERVAL_MS;
  }

  /** Where the next command starts unless it names a `cwd`. */
  get cwd(): string {
    return this.#cwd;
  }

  /** Moves the working directory, for backends that learn it only after connecting. */
  protected setCwd(cwd: string): void {
    this.#cwd = cwd;
  }

  /** True once {@link cleanup} has run. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Starts `sh -c script` in this backend's world, as the leader of its own process group (or,
   * remotely, as a session leader whose pid the script reports).
   */
  protected abstract launch(script: string): Promise<LaunchedShell> | LaunchedShell;

  /** Releases backend resources (connections, scratch directories) after commands are killed. */
  protected async release(): Promise<void> {}

  /** Turns a process that never reported its pid (never started the script) into an error. */
  protected startFailure(_outcome: ProcessOutcome, _output: string): Error | undefined {
    return undefined;
  }

  /** Connects or prepares the backend before a command; resolves the starting cwd remotely. */
  protected async ready(): Promise<void> {}

  async execute(command: string, options: ExecuteOptions = {}): Promise<ExecuteResult> {
    this.#assertOpen();
    if (!options.signal?.aborted) await this.#readyOrThrow();
    const cwd = options.cwd ?? this.#cwd;
    if (options.signal?.aborted) {
      return { output: '', exitCode: null, timedOut: false, interrupted: true, cwd: this.#cwd };
    }
    const script = buildScript({
      command,
      cwd,
      env: { ...this.extraEnv, ...options.env },
      marker: this.marker,
      reportCwd: true,
    });
    const collector = new BoundedOutputCollector({
      maxChars: options.maxOutputChars ?? this.maxOutputChars,
      spillPath: () => this.#nextSpillPath(),
    });
    const launched = await this.#launchOrThrow(script);
    this.#running.add(launched);
    let outcome: ProcessOutcome;
    try {
      outcome = await watchProcess({
        child: launched.child,
        marker: this.marker,
        collector,
        stdin: options.stdin,
        timeoutMs: options.timeoutMs ?? this.defaultTimeoutMs,
        signal: options.signal,
        onActivity: options.onActivity,
        activityIntervalMs: this.#activityIntervalMs,
        kill: launched.kill,
        drainMs: DRAIN_MS,
      });
    } catch (error) {
      throw this.#connectionError(error);
    } finally {
      this.#running.delete(launched);
    }
    const spillPath = collector.closeSpill();
    const output = collector.render();
    if (outcome.pid === undefined && !outcome.timedOut && !outcome.interrupted) {
      const failure = this.startFailure(outcome, output);
      if (failure) throw failure;
    }
    if (outcome.cwd) this.#cwd = outcome.cwd;
    return {
      output,
      exitCode: outcome.exitCode,
      timedOut: outcome.timedOut,
      interrupted: outcome.interrupted,
      cwd: this.#cwd,
      ...(spillPath === undefined ? {} : { spillPath }),
    };
  }

  /**
   * Starts `command` in the background (for {@link BackgroundProcesses}): same shell, same
   * working directory and variables as `execute`, but nothing waits for it. `cleanup()` kills it.
   */
  async launchBackground(
    command: string,
    options: BackgroundStartOptions = {},
  ): Promise<BackgroundLaunch> {
    this.#assertOpen();
    await this.#readyOrThrow();
    const script = buildScript({
      command,
      cwd: options.cwd ?? this.#cwd,
      env: { ...this.extraEnv, ...options.env },
      marker: this.marker,
      reportCwd: false,
    });
    const launched = await this.#launchOrThrow(script);
    this.#running.add(launched);
    launched.child.once('exit', () => this.#running.delete(launched));
    return { child: launched.child, kill: launched.kill, marker: this.marker };
  }

  async cleanup(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const running = [...this.#running];
    this.#running.clear();
    await Promise.all(running.map((shell) => shell.kill(shell.child.pid)));
    await this.release();
  }

  override describe(): EnvironmentDescription {
    return { backend: this.name, cwd: this.#cwd };
  }

  /** Throws {@link EnvironmentConnectionError} once the environment is cleaned up. */
  protected assertOpen(): void {
    this.#assertOpen();
  }

  #assertOpen(): void {
    if (this.#closed) {
      throw new EnvironmentConnectionError(`the ${this.name} environment has been cleaned up`, {
        retryHint: 'start a new session to get a fresh environment',
        retryable: false,
      });
    }
  }

  async #readyOrThrow(): Promise<void> {
    try {
      await this.ready();
    } catch (error) {
      throw this.#connectionError(error);
    }
  }

  async #launchOrThrow(script: string): Promise<LaunchedShell> {
    try {
      return await this.launch(script);
    } catch (error) {
      throw this.#connectionError(error);
    }
  }

  #connectionError(error: unknown): EnvironmentConnectionError {
    if (error instanceof EnvironmentConnectionError) return error;
    const reason = error instanceof Error ? error.message : String(error);
    const message = `the ${this.name} environment could not start the command: ${reason}`;
    return new EnvironmentConnectionError(message, {
      retryHint: 'check that the backend is installed and reachable',
      cause: error,
    });
  }

  #nextSpillPath(): string {
    spillCounter += 1;
    return join(
      this.storageDir,
      'spill',
      `${this.name}-${process.pid}-${Date.now()}-${spillCounter}.log`,
    );
  }
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive number, got ${value}`);
  }
  return value;
}
