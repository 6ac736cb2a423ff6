/** Killing a command's whole process group, politely first and then for certain. */

/** Milliseconds between SIGTERM and SIGKILL, short enough that the group is gone within 100 ms. */
export const DEFAULT_KILL_GRACE_MS = 50;

/** Sends `signal` to every process in group `pgid`; false when none was left. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** True while any process of group `pgid` exists (an unreaped zombie counts). */
export function groupAlive(pgid: number): boolean {
  return signalGroup(pgid, 0);
}

/**
 * SIGTERM to the whole group, then SIGKILL after `graceMs` to whatever ignored it. Resolves once
 * SIGKILL was sent or the group was already gone.
 */
export function killGroup(pgid: number, graceMs = DEFAULT_KILL_GRACE_MS): Promise<void> {
  if (!signalGroup(pgid, 'SIGTERM')) return Promise.resolve();
  return new Promise((resolve) => {
    setTimeout(() => {
      if (groupAlive(pgid)) signalGroup(pgid, 'SIGKILL');
      resolve();
    }, graceMs);
  });
}
