/**
 * The `docker` backend: one container per session, started on first use and removed by
 * `cleanup()`; each command is a `docker exec` of the shared wrapper script.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  type DockerContainerSpec,
  dockerExecArgs,
  dockerKillArgs,
  dockerRemoveArgs,
  dockerRunArgs,
} from './docker-command.js';
import { EnvironmentConnectionError } from './errors.js';
import {
  type LaunchedShell,
  ProcessEnvironment,
  type ProcessEnvironmentOptions,
} from './process-environment.js';
import { killGroup } from './process-group.js';
import type { ProcessOutcome } from './run-process.js';

/** Options of a {@link DockerEnvironment}. */
export interface DockerEnvironmentOptions extends ProcessEnvironmentOptions {
  /** Image to run. Default `debian:stable-slim`. */
  readonly image?: string;
  /** Host directory mounted read-write at `workdir` (the project). Default: none. */
  readonly hostWorkspace?: string;
  /** Working directory inside the container. Default `/workspace`. */
  readonly workdir?: string;
  /** Allow network access. Default `false`. */
  readonly network?: boolean;
  readonly volumes?: readonly string[];
  readonly memory?: string;
  readonly cpus?: string;
  /** The docker CLI. Default `docker` on PATH. */
  readonly dockerPath?: string;
}

/** Runs a docker CLI command to its end. */
function docker(bin: string, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(bin, args, { timeout: 120_000, encoding: 'utf8' }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, output: `${stdout}${stderr}`.trim() || (error?.message ?? '') });
    });
  });
}

/** Runs commands in a container of its own via the docker CLI. */
export class DockerEnvironment extends ProcessEnvironment {
  readonly name = 'docker';
  readonly container: string;
  readonly #spec: DockerContainerSpec;
  readonly #docker: string;
  #started: Promise<void> | undefined;

  constructor(options: DockerEnvironmentOptions = {}) {
    const workdir = options.workdir ?? '/workspace';
    super({ ...options, cwd: options.cwd ?? workdir }, workdir);
    this.container = `hermes-${randomBytes(6).toString('hex')}`;
    this.#docker = options.dockerPath ?? 'docker';
    this.#spec = {
      image: options.image ?? 'debian:stable-slim',
      name: this.container,
      workdir,
      network: options.network ?? false,
      volumes: options.volumes ?? [],
      ...(options.hostWorkspace ? { hostWorkspace: options.hostWorkspace } : {}),
      ...(options.memory ? { memory: options.memory } : {}),
      ...(options.cpus ? { cpus: options.cpus } : {}),
    };
  }

  protected override ready(): Promise<void> {
    this.#started ??= this.#start().catch((error: unknown) => {
      this.#started = undefined;
      throw error;
    });
    return this.#started;
  }

  async #start(): Promise<void> {
    const run = await docker(this.#docker, dockerRunArgs(this.#spec));
    if (run.code !== 0) {
      throw new EnvironmentConnectionError(
        `cannot start a ${this.#spec.image} container: ${run.output}`,
        {
          retryHint: 'check that the docker engine is running and the image exists',
        },
      );
    }
  }

  protected launch(script: string): LaunchedShell {
    const child: ChildProcess = spawn(this.#docker, dockerExecArgs(this.container, script), {
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const grace = this.killGraceMs;
    return {
      child,
      kill: async (pid) => {
        const inside =
          pid === undefined
            ? Promise.resolve()
            : docker(this.#docker, dockerKillArgs(this.container, pid, grace / 1000));
        await Promise.all([
          inside,
          child.pid === undefined ? undefined : killGroup(child.pid, grace),
        ]);
      },
    };
  }

  /** `docker exec` failing before the script ran means the container is gone. */
  protected override startFailure(outcome: ProcessOutcome, output: string): Error | undefined {
    if (outcome.exitCode === 0) return undefined;
    return new EnvironmentConnectionError(
      `the container ${this.container} is not available: ${output.trim()}`,
      {
        retryHint: 'the container stopped or the engine restarted; start a new session',
      },
    );
  }

  protected override async release(): Promise<void> {
    if (this.#started === undefined) return;
    await this.#started.catch(() => undefined);
    await docker(this.#docker, dockerRemoveArgs(this.container));
  }

  override describe() {
    return { ...super.describe(), image: this.#spec.image, network: this.#spec.network };
  }
}
