/**
 * The `sandbox` backend: commands run under bubblewrap on this machine with the working
 * directory writable, everything else read-only, a private /tmp, no network unless enabled, and
 * no capabilities. Real isolation without a container engine.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EnvironmentConnectionError } from './errors.js';
import { stringEnv } from './login-env.js';
import {
  type LaunchedShell,
  ProcessEnvironment,
  type ProcessEnvironmentOptions,
} from './process-environment.js';
import { killGroup } from './process-group.js';
import type { ProcessOutcome } from './run-process.js';

/** Options of a {@link SandboxEnvironment}. */
export interface SandboxEnvironmentOptions extends ProcessEnvironmentOptions {
  /** The workspace: bind-mounted read-write, and where commands start. Default `process.cwd()`. */
  readonly cwd?: string;
  /** Allow network access. Default `false`: the sandbox has only a loopback interface. */
  readonly network?: boolean;
  /** More host directories to mount read-write (for example a package cache). */
  readonly writablePaths?: readonly string[];
  /** The bubblewrap binary. Default `bwrap` on PATH. */
  readonly bwrapPath?: string;
}

/** The arguments of one bubblewrap invocation, before `sh -c script`. */
export function bwrapArgs(options: {
  workspace: string;
  tmpDir: string;
  network: boolean;
  writablePaths: readonly string[];
}): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  args.push('--bind', options.tmpDir, '/tmp');
  // After /tmp, so a workspace that lives under /tmp is mounted on top of the private one.
  for (const path of [options.workspace, ...options.writablePaths]) args.push('--bind', path, path);
  args.push('--unshare-pid', '--unshare-ipc', '--unshare-uts', '--die-with-parent');
  args.push('--cap-drop', 'ALL');
  if (!options.network) args.push('--unshare-net');
  // No --new-session: the sandbox must stay in the process group that a kill reaches. The pid
  // namespace plus --die-with-parent end everything inside when bwrap dies.
  return args;
}

/**
 * Runs each command as `bwrap … /bin/sh -c` in a new process group. The private /tmp is a
 * directory under the host storage root (`<HERMES_HOME>/sandboxes/<id>/tmp`), kept for the
 * session and removed by `cleanup()`.
 */
export class SandboxEnvironment extends ProcessEnvironment {
  readonly name = 'sandbox';
  readonly workspace: string;
  readonly #network: boolean;
  readonly #writablePaths: readonly string[];
  readonly #bwrap: string;
  readonly #sandboxDir: string;

  constructor(options: SandboxEnvironmentOptions = {}) {
    const workspace = resolve(options.cwd ?? process.cwd());
    super({ ...options, cwd: workspace }, workspace);
    this.workspace = workspace;
    this.#network = options.network ?? false;
    this.#writablePaths = (options.writablePaths ?? []).map((path) => resolve(path));
    this.#bwrap = options.bwrapPath ?? 'bwrap';
    this.#sandboxDir = join(this.storageDir, `sandbox-${randomBytes(6).toString('hex')}`);
  }

  protected launch(script: string): LaunchedShell {
    const tmpDir = join(this.#sandboxDir, 'tmp');
    mkdirSync(tmpDir, { recursive: true, mode: 0o700 });
    const args = bwrapArgs({
      workspace: this.workspace,
      tmpDir,
      network: this.#network,
      writablePaths: this.#writablePaths,
    });
    const child = spawn(this.#bwrap, [...args, '/bin/sh', '-c', script], {
      cwd: '/',
      env: { ...stringEnv(process.env), TMPDIR: '/tmp' },
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const grace = this.killGraceMs;
    return {
      child,
      kill: () => (child.pid === undefined ? Promise.resolve() : killGroup(child.pid, grace)),
    };
  }

  /** bubblewrap refusing to start (no user namespaces, bad mount) is not the command's fault. */
  protected override startFailure(outcome: ProcessOutcome, output: string): Error | undefined {
    if (outcome.exitCode === 0) return undefined;
    return new EnvironmentConnectionError(
      `bubblewrap could not start the sandbox: ${output.trim()}`,
      {
        retryHint: 'check that bubblewrap (bwrap) is installed and user namespaces are enabled',
        retryable: false,
      },
    );
  }

  protected override async release(): Promise<void> {
    rmSync(this.#sandboxDir, { recursive: true, force: true });
  }

  override describe() {
    return { ...super.describe(), workspace: this.workspace, network: this.#network };
  }
}
