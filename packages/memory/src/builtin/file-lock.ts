/**
 * A cross-process lock on a file, made of a sibling lock file created with `O_EXCL`
 * (`fs.open(path, 'wx')`): exactly one process can create it. The file records its owner's pid,
 * so a lock left behind by a crashed process is recognized and broken instead of blocking
 * every later write.
 */
import { randomUUID } from 'node:crypto';
import { open, readFile, stat, unlink } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { HermesError } from '@hermes/protocol';

/** Tuning of {@link withFileLock}. */
export interface FileLockOptions {
  /** How long to wait for a held lock before giving up. Default 10,000 ms. */
  readonly timeoutMs?: number | undefined;
  /** A lock older than this is broken even if its pid looks alive (pids get reused). Default 30,000 ms. */
  readonly staleMs?: number | undefined;
  /** How often a waiting process retries. Default 25 ms. */
  readonly pollMs?: number | undefined;
}

interface LockRecord {
  readonly pid: number;
  readonly token: string;
  readonly acquiredAt: number;
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return errorCode(error) === 'EPERM';
  }
}

async function tryCreate(lockPath: string, record: LockRecord): Promise<boolean> {
  try {
    const handle = await open(lockPath, 'wx');
    try {
      await handle.writeFile(JSON.stringify(record));
    } finally {
      await handle.close();
    }
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  }
}

/** True when the existing lock's owner is gone or the lock is older than `staleMs`. */
async function isStale(lockPath: string, staleMs: number): Promise<boolean> {
  try {
    const [text, info] = await Promise.all([readFile(lockPath, 'utf8'), stat(lockPath)]);
    if (Date.now() - info.mtimeMs > staleMs) return true;
    const pid = (JSON.parse(text) as Partial<LockRecord>).pid;
    return typeof pid === 'number' && pid !== process.pid && !processAlive(pid);
  } catch (error) {
    // Vanished between our attempts: not stale, just retry. A half-written record (the owner
    // is between open and write) is judged by its age alone on a later attempt.
    if (errorCode(error) === 'ENOENT' || error instanceof SyntaxError) return false;
    throw error;
  }
}

async function release(lockPath: string, token: string): Promise<void> {
  try {
    const record = JSON.parse(await readFile(lockPath, 'utf8')) as Partial<LockRecord>;
    // Only remove our own lock: if ours was judged stale and broken, another owner holds it now.
    if (record.token === token) await unlink(lockPath);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT' && !(error instanceof SyntaxError)) throw error;
  }
}

/**
 * Runs `fn` while holding the lock `lockPath`, waiting up to `timeoutMs` for another holder.
 *
 * @throws `HermesError` `memory.lock_timeout` when the lock stays held by a live process.
 */
export async function withFileLock<T>(
  lockPath: string,
  fn: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const { timeoutMs = 10_000, staleMs = 30_000, pollMs = 25 } = options;
  const record: LockRecord = { pid: process.pid, token: randomUUID(), acquiredAt: Date.now() };
  const deadline = Date.now() + timeoutMs;
  while (!(await tryCreate(lockPath, record))) {
    if (await isStale(lockPath, staleMs)) {
      await unlink(lockPath).catch((error: unknown) => {
        if (errorCode(error) !== 'ENOENT') throw error;
      });
      continue;
    }
    if (Date.now() >= deadline) {
      throw new HermesError(
        'memory.lock_timeout',
        `Timed out after ${timeoutMs} ms waiting for the lock ${lockPath}, held by another Hermes process. Retry shortly; if no other Hermes process is running, delete the lock file.`,
        { retryable: true, details: { lockPath, timeoutMs } },
      );
    }
    await sleep(pollMs);
  }
  try {
    return await fn();
  } finally {
    await release(lockPath, record.token);
  }
}
