/** The default backend: commands run on this machine, each in its own process group. */
import { spawn } from 'node:child_process';
import { hermesVariables, loginEnvironment, stringEnv } from './login-env.js';
import {
  type LaunchedShell,
  ProcessEnvironment,
  type ProcessEnvironmentOptions,
} from './process-environment.js';
import { killGroup } from './process-group.js';

/** Options of a {@link LocalEnvironment}. */
export interface LocalEnvironmentOptions extends ProcessEnvironmentOptions {
  /**
   * Start from the login shell's environment (captured once) rather than this process's own.
   * Default `true`, so commands find what the user's profile puts on PATH.
   */
  readonly loginShellEnv?: boolean;
}

/**
 * Runs each command as `/bin/sh -c` on this machine in a new process group; a timeout, an abort
 * or `cleanup()` sends SIGTERM to the group and SIGKILL shortly after. No isolation at all: use
 * `SandboxEnvironment` or a remote backend for untrusted work.
 */
export class LocalEnvironment extends ProcessEnvironment {
  readonly name: string = 'local';
  readonly #loginShellEnv: boolean;
  #baseEnv: Record<string, string> | undefined;

  constructor(options: LocalEnvironmentOptions = {}) {
    super(options, process.cwd());
    this.#loginShellEnv = options.loginShellEnv ?? true;
  }

  /** The environment every command starts from, before per-environment and per-call variables. */
  protected async baseEnv(): Promise<Record<string, string>> {
    if (!this.#baseEnv) {
      const own = stringEnv(process.env);
      // The capture is cached per process; Hermes's own variables are read fresh per environment.
      this.#baseEnv = this.#loginShellEnv
        ? { ...(await loginEnvironment()), ...hermesVariables(own) }
        : own;
    }
    return this.#baseEnv;
  }

  protected async launch(script: string): Promise<LaunchedShell> {
    const child = spawn('/bin/sh', ['-c', script], {
      cwd: '/',
      env: await this.baseEnv(),
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const grace = this.killGraceMs;
    return {
      child,
      kill: () => (child.pid === undefined ? Promise.resolve() : killGroup(child.pid, grace)),
    };
  }
}
