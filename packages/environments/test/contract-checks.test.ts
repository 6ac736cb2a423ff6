/** The contract's checks must catch broken environments, not just pass good ones. */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type EnvironmentDescription,
  type ExecuteOptions,
  type ExecuteResult,
  ExecutionEnvironment,
  type LaunchedShell,
  LocalEnvironment,
} from '../src/index.js';
import {
  checkAbortKillsGroup,
  checkCapturesStderr,
  checkCleanupIsIdempotent,
  checkCwdPersists,
  checkDescribes,
  checkInterrupts,
  checkMissingCwd,
  checkReportsExitCode,
  checkRunsCommand,
  checkTimeoutKillsGroup,
  checkTimesOut,
} from '../src/testing.js';
import { ShellEnvironment } from './support/shell-environment.js';

/** Kills only the shell on abort, leaving its children running. */
class KillsOnlyShell extends LocalEnvironment {
  readonly groups: number[] = [];
  protected override async launch(script: string): Promise<LaunchedShell> {
    const launched = await super.launch(script);
    if (launched.child.pid) this.groups.push(launched.child.pid);
    return {
      child: launched.child,
      kill: async () => {
        launched.child.kill('SIGKILL');
      },
    };
  }
}

/** Matches a `ContractViolation` (the one way a check fails) whose message matches `pattern`. */
const violation = (pattern: RegExp) =>
  expect.objectContaining({ name: 'ContractViolation', message: expect.stringMatching(pattern) });

const made: ExecutionEnvironment[] = [];
function track<T extends ExecutionEnvironment>(environment: T): T {
  made.push(environment);
  return environment;
}
afterEach(async () => {
  for (const environment of made.splice(0)) await environment.cleanup().catch(() => {});
});

/** Forgets the timeout and the signal. */
class IgnoresLimits extends ShellEnvironment {
  override execute(command: string, options: ExecuteOptions = {}): Promise<ExecuteResult> {
    const { timeoutMs: _t, signal: _s, ...rest } = options;
    return super.execute(command, rest);
  }
}

/** A fresh writable working directory, removed after the test. */
const dirs: string[] = [];
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hermes-checks-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A correct environment that is slow to start a command (a remote connection, a loaded host): it
 * honours an abort that arrives while it is still starting, and records whether one did.
 */
class SlowToStart extends ShellEnvironment {
  abortedBeforeStart = false;
  override async execute(command: string, options: ExecuteOptions = {}): Promise<ExecuteResult> {
    await new Promise((resolve) => setTimeout(resolve, 500));
    if (options.signal?.aborted) {
      this.abortedBeforeStart = true;
      return { output: '', exitCode: null, timedOut: false, interrupted: true, cwd: tmpdir() };
    }
    return super.execute(command, options);
  }
}

/**
 * A correct environment on a host so loaded that the first heartbeat command's children start
 * only after its short timeout has fired (simulated by a delay inside that one command).
 */
class ChildrenStartLate extends ShellEnvironment {
  delayed = 0;
  override execute(command: string, options: ExecuteOptions = {}): Promise<ExecuteResult> {
    if (options.timeoutMs !== undefined && command.includes('beat') && this.delayed === 0) {
      this.delayed += 1;
      return super.execute(`sleep ${options.timeoutMs / 1000 + 0.5}; ${command}`, options);
    }
    return super.execute(command, options);
  }
}

/** Treats a non-zero exit as an error. */
class ThrowsOnFailure extends ShellEnvironment {
  override async execute(command: string, options: ExecuteOptions = {}): Promise<ExecuteResult> {
    const result = await super.execute(command, options);
    if (result.exitCode !== 0) throw new Error(`exit ${result.exitCode}`);
    return result;
  }
}

/** Loses standard error. */
class DropsStderr extends ShellEnvironment {
  override execute(command: string, options: ExecuteOptions = {}): Promise<ExecuteResult> {
    return super.execute(`{ ${command}; } 2>/dev/null`, options);
  }
}

/** Returns results of the wrong shape, describes nothing, and fails a second cleanup. */
class Sloppy extends ExecutionEnvironment {
  readonly name = 'sloppy';
  #cleaned = false;
  async execute(): Promise<ExecuteResult> {
    return { output: 'hello', exitCode: '0', timedOut: false, cwd: '' } as unknown as ExecuteResult;
  }
  override describe(): EnvironmentDescription {
    return {} as EnvironmentDescription;
  }
  async cleanup(): Promise<void> {
    if (this.#cleaned) throw new Error('already cleaned up');
    this.#cleaned = true;
  }
}

describe('environment contract checks reject broken environments', () => {
  it('a malformed result fails, naming the bad fields', async () => {
    await expect(checkRunsCommand(new Sloppy())).rejects.toThrow(
      violation(/malformed result \(exitCode: .*interrupted: .*cwd: cwd must not be empty/),
    );
  });

  it('rejecting on a non-zero exit fails', async () => {
    await expect(checkReportsExitCode(track(new ThrowsOnFailure()))).rejects.toThrow(
      violation(/rejected instead of returning a result: Error: exit 3/),
    );
  });

  it('losing standard error fails', async () => {
    await expect(checkCapturesStderr(track(new DropsStderr()))).rejects.toThrow(
      violation(/stderr missing/),
    );
  });

  it('ignoring the timeout fails within the deadline', async () => {
    await expect(checkTimesOut(track(new IgnoresLimits()), 100, 300)).rejects.toThrow(
      violation(/did not settle within 400 ms/),
    );
  });

  it('ignoring the abort signal fails within the deadline', async () => {
    await expect(
      checkInterrupts(track(new IgnoresLimits({ cwd: scratch() })), 300),
    ).rejects.toThrow(violation(/after its signal aborted did not settle within 300 ms/));
  });

  it('killing only the shell, not its group, fails', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hermes-checks-'));
    try {
      const environment = track(new KillsOnlyShell({ cwd: dir, loginShellEnv: false }));
      await expect(checkAbortKillsGroup(environment)).rejects.toThrow(
        violation(/a child of the aborted command is still running/),
      );
    } finally {
      // Reap what the broken environment left behind.
      for (const group of (made.at(-1) as KillsOnlyShell).groups) {
        try {
          process.kill(-group, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('forgetting cd and running in a missing cwd fail', async () => {
    await expect(checkCwdPersists(track(new ShellEnvironment({ cwd: tmpdir() })))).rejects.toThrow(
      violation(/did not start where cd left it|cd into a new directory/),
    );
    await expect(checkMissingCwd(track(new ShellEnvironment()))).rejects.toThrow(
      violation(/cannot start the command|does not name the missing cwd|ran:/),
    );
  });

  it('a description without a backend fails', () => {
    expect(() => checkDescribes(new Sloppy())).toThrow(violation(/returned \{\}, with no backend/));
  });

  it('a cleanup that fails the second time fails', async () => {
    await expect(checkCleanupIsIdempotent(new Sloppy())).rejects.toThrow(/already cleaned up/);
  });
});

describe('environment contract checks wait for the command, not for the clock', {
  timeout: 60_000,
}, () => {
  it('aborts only once the command runs, however slowly the environment starts it', async () => {
    const environment = track(new SlowToStart({ cwd: scratch() }));
    await checkInterrupts(environment);
    expect(environment.abortedBeforeStart).toBe(false);
  });

  it('a timeout that fired before the children started is retried with a longer one', async () => {
    const environment = track(new ChildrenStartLate({ cwd: scratch() }));
    await checkTimeoutKillsGroup(environment);
    expect(environment.delayed).toBe(1);
  });
});
