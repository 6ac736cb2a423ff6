/** How {@link BackgroundProcesses} starts a process: through an environment or a spawn function. */
import type { ChildProcess } from 'node:child_process';
import type { ExecutionEnvironment } from './execution-environment.js';
import { killGroup } from './process-group.js';

/** Where and with what a background process starts. */
export interface BackgroundStartOptions {
  /** Working directory; default the environment's current one. */
  readonly cwd?: string;
  /** Variables added for this process. */
  readonly env?: Readonly<Record<string, string>>;
}

/** Lifecycle of a background process. */
export type BackgroundStatus = 'running' | 'exited' | 'killed';

/** A started background process. */
export interface BackgroundLaunch {
  readonly child: ChildProcess;
  /** Kills the process group; `pid` is the pid the wrapper reported (remote hosts), if any. */
  readonly kill: (pid: number | undefined) => Promise<void>;
  /** Frames the wrapper's records in stdout, when the process runs in the Hermes wrapper. */
  readonly marker?: string;
}

/**
 * Starts a process for a background command. It should be the leader of its own process group
 * (`spawn(..., { detached: true })`) so that killing it kills its children too.
 */
export type SpawnFunction = (command: string, options: BackgroundStartOptions) => ChildProcess;

/** An environment that can start background processes (every shell-process backend can). */
export interface BackgroundCapable {
  launchBackground(command: string, options?: BackgroundStartOptions): Promise<BackgroundLaunch>;
}

function isCapable(value: unknown): value is BackgroundCapable {
  return typeof (value as Partial<BackgroundCapable>).launchBackground === 'function';
}

/** The launch function for `source`, or a clear error when it cannot run background work. */
export function launcherFor(
  source: ExecutionEnvironment | SpawnFunction,
): (command: string, options: BackgroundStartOptions) => Promise<BackgroundLaunch> {
  if (isCapable(source)) return (command, options) => source.launchBackground(command, options);
  if (typeof source === 'function') {
    return async (command, options) => {
      const child = source(command, options);
      const kill = async (): Promise<void> => {
        if (child.pid === undefined) return;
        // A child spawned without `detached` leads no group: kill just the child then.
        if (!(await killGroupOf(child.pid))) child.kill('SIGKILL');
      };
      return { child, kill };
    };
  }
  throw new TypeError(
    `the ${source.name} environment cannot run background processes: it has no launchBackground(); pass a spawn function instead`,
  );
}

async function killGroupOf(pid: number): Promise<boolean> {
  try {
    process.kill(-pid, 0);
  } catch {
    return false;
  }
  await killGroup(pid);
  return true;
}
