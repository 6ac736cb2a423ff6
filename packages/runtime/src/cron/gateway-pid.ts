/**
 * `HERMES_HOME/gateway.pid`: the gateway writes its process id when it starts serving and
 * removes the file when it stops, so `hermes cron` can tell whether a gateway will deliver (and
 * run the scheduler) or whether it must run a job itself and queue the delivery.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../config/atomic-write.js';

/** The file's name under `HERMES_HOME`. */
export const GATEWAY_PID_FILE = 'gateway.pid';

/** Where the pid file of `hermesHome` lives. */
export function gatewayPidPath(hermesHome: string): string {
  return join(hermesHome, GATEWAY_PID_FILE);
}

/** The pid the file holds, or undefined when there is no file or it does not hold a pid. */
export function readGatewayPid(hermesHome: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(gatewayPidPath(hermesHome), 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number(text.trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** Whether a process with `pid` exists (one we may not signal still exists). */
function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether a gateway serves `hermesHome` now: its pid file names a live process. A file left by a
 * gateway that crashed (its pid is gone) counts as not running.
 */
export function isGatewayRunning(hermesHome: string): boolean {
  const pid = readGatewayPid(hermesHome);
  return pid !== undefined && processExists(pid);
}

/** Writes this process's pid (atomically, so a reader never sees half a number). */
export function writeGatewayPid(hermesHome: string, pid: number = process.pid): void {
  writeFileAtomic(gatewayPidPath(hermesHome), `${pid}\n`);
}

/** Removes the pid file if it still names `pid` (a newer gateway's file is left alone). */
export function removeGatewayPid(hermesHome: string, pid: number = process.pid): void {
  if (readGatewayPid(hermesHome) !== pid) return;
  rmSync(gatewayPidPath(hermesHome), { force: true });
}
