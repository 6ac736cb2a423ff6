/** The seam behind every tool that runs something: where a shell command actually executes. */
import type { EnvironmentDescription } from './description.js';
import type { ExecuteOptions, ExecuteResult } from './execute.js';

/**
 * A place where shell commands run: this machine, a bubblewrap sandbox, a host over ssh, a
 * container. One environment serves one session, chosen by configuration (`terminal.backend`),
 * never per call, because switching environments switches file systems. The terminal, process and
 * file tools all go through {@link ExecutionEnvironment.execute}, so they behave the same on
 * every backend.
 *
 * Required: `name`, {@link ExecutionEnvironment.execute}, {@link ExecutionEnvironment.cleanup}.
 * Optional, with safe defaults: {@link ExecutionEnvironment.describe},
 * {@link ExecutionEnvironment.syncFilesIn}, {@link ExecutionEnvironment.syncFilesOut}. Any
 * optional member added later will also have a default, so a backend written today keeps working.
 *
 * What every backend promises (checked by `describeExecutionEnvironmentContract` in
 * `@hermes/environments/testing`):
 * - a command that fails is a result with its exit code, never a rejection; only a broken
 *   environment rejects, with an `EnvironmentConnectionError`;
 * - standard error is captured in `output` alongside standard output;
 * - on timeout or abort the command's whole process group is killed and `execute` returns
 *   promptly with `timedOut` or `interrupted` set;
 * - `cleanup()` may be called any number of times.
 */
export abstract class ExecutionEnvironment {
  /** The backend's name, such as `local`, `sandbox`, `ssh` or `docker`. */
  abstract readonly name: string;

  /**
   * Runs `command` through the environment's shell and resolves when it has ended, timed out or
   * been interrupted. Never rejects because the command failed.
   *
   * @param command - A shell command line, run by a POSIX shell (`sh -c` or a login shell).
   * @param options - Working directory, timeout, abort signal, stdin, extra environment
   *   variables and the activity callback. See {@link ExecuteOptions}.
   * @returns The interleaved output, the exit code (`null` when killed), the `timedOut` and
   *   `interrupted` flags, the working directory after the command, and the spill file path when
   *   the output was too long to return whole.
   * @throws `EnvironmentConnectionError` when the environment itself is unusable (connection
   *   lost, container gone, already cleaned up).
   */
  abstract execute(command: string, options?: ExecuteOptions): Promise<ExecuteResult>;

  /**
   * Releases everything the environment holds: kills running commands, closes connections,
   * removes temporary containers and files. Idempotent: a second call resolves without doing
   * anything. The environment is not used afterwards; backends that hold a connection reject a
   * later `execute` with `EnvironmentConnectionError`.
   */
  abstract cleanup(): Promise<void>;

  /**
   * A secret-free, JSON-serializable summary for status lines, `hermes doctor` and logs.
   * Default: `{ backend: this.name }`. Overrides should keep `backend` and add details such as
   * the host or the image.
   */
  describe(): EnvironmentDescription {
    return { backend: this.name };
  }

  /**
   * Copies Hermes's own runtime files (credentials the tools need, skills, caches) from this
   * machine into the environment, sending only what changed. Remote backends call it before
   * running a command. Default: does nothing, which is right for backends that share this
   * machine's file system.
   */
  async syncFilesIn(): Promise<void> {}

  /**
   * Brings back the runtime files the environment changed (a skill the model wrote remotely),
   * never credentials. Remote backends call it during `cleanup()`. Default: does nothing.
   */
  async syncFilesOut(): Promise<void> {}
}
