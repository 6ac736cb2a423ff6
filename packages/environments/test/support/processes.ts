/**
 * Process helpers for tests: is a pid alive, and waiting for an event with a generous backstop.
 * Tests wait for what they mean (a pid printed, a process gone); the bound only ends a test that
 * would otherwise hang, so it is far above anything a loaded machine needs.
 */
import { existsSync, readFileSync } from 'node:fs';

/** The backstop for waiting on an event that should come in milliseconds. */
export const BACKSTOP_MS = 15_000;

/** True while `pid` runs. A zombie (dead, not yet reaped) counts as gone. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    // No /proc (not Linux): trust kill(0). With /proc, an unreadable status means it is gone.
    return !existsSync('/proc');
  }
}

/** Polls `condition` every 10 ms until it holds (`true`) or `ms` have passed (`false`). */
export async function waitUntil(condition: () => boolean, ms = BACKSTOP_MS): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return condition();
}

/** A promise with its resolve function, for an event a callback reports. */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Shell code that waits until `file` exists: a command paused until the test says go. */
export function untilExists(file: string): string {
  return `until [ -e '${file}' ]; do sleep 0.01; done`;
}
