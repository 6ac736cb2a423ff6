/** Process helpers for tests: is a pid alive, and polling until a condition holds. */
import { existsSync, readFileSync } from 'node:fs';

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
    return !existsSync('/proc');
  }
}

/** Polls `condition` every 10 ms for up to `ms`. */
export async function waitUntil(condition: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return condition();
}
