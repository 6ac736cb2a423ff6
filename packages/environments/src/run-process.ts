/** Drives one spawned wrapper shell to its end: output, timeout, abort, activity, cleanup. */
import type { ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import type { ExecuteActivity } from './execute.js';
import { MarkerFilter } from './marker-filter.js';
import type { BoundedOutputCollector } from './output-collector.js';

/** How long a stop waits for the wrapper to report its pid before killing what it can. */
const PID_WAIT_MS = 2_000;

/** How to watch one process. */
export interface ProcessWatch {
  readonly child: ChildProcess;
  readonly marker: string;
  readonly collector: BoundedOutputCollector;
  readonly stdin?: string | undefined;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
  readonly onActivity?: ((activity: ExecuteActivity) => void) | undefined;
  readonly activityIntervalMs: number;
  /** Kills the command's whole process group; `pid` is the wrapper's reported pid, if any. */
  readonly kill: (pid: number | undefined) => Promise<void>;
  /** How long to keep reading after the shell exits while a leftover child holds the pipes. */
  readonly drainMs: number;
}

/** How the process ended. */
export interface ProcessOutcome {
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly interrupted: boolean;
  /** The wrapper's working directory at exit, when it reported one. */
  readonly cwd?: string;
  /** The wrapper's pid, when it reported one (absent: it never started). */
  readonly pid?: number;
}

/** Decodes a byte stream as UTF-8 (invalid bytes become U+FFFD) and drops NUL characters. */
export function textOf(decoder: StringDecoder, chunk: Buffer): string {
  const text = decoder.write(chunk);
  return text.includes('\0') ? text.replaceAll('\0', '\uFFFD') : text;
}

/**
 * Collects the output of `watch.child`, enforces its timeout and abort signal by killing the
 * process group, and resolves when it has ended. Rejects only when the process could not be
 * started at all (the `error` event), which the caller turns into a connection error.
 */
export function watchProcess(watch: ProcessWatch): Promise<ProcessOutcome> {
  return new Promise((resolve, reject) => {
    const { child, collector } = watch;
    const started = Date.now();
    let timedOut = false;
    let interrupted = false;
    let cwd: string | undefined;
    let pid: number | undefined;
    let lastText = '';
    let lastActivity = started;
    let exitCode: number | null = null;
    let settled = false;
    let drainTimer: NodeJS.Timeout | undefined;
    const startDrain = (): void => {
      drainTimer ??= setTimeout(finish, watch.drainMs);
    };

    const collect = (text: string): void => {
      if (text.length === 0) return;
      collector.append(text);
      if (!watch.onActivity) return;
      // Keep only the end of the latest chunk; the heartbeat shows its last line.
      if (text.trim()) lastText = text.length > 512 ? text.slice(-512) : text;
      touchActivity();
    };
    const touchActivity = (): void => {
      const now = Date.now();
      if (!watch.onActivity || now - lastActivity < watch.activityIntervalMs) return;
      lastActivity = now;
      try {
        watch.onActivity({ elapsedMs: now - started, message: lastLineOf(lastText) || 'running' });
      } catch {
        // An observer can never break a command.
      }
    };
    const filter = new MarkerFilter(watch.marker, collect, (record) => {
      if (record.kind === 'C') cwd = record.value;
      else if (record.kind === 'P') {
        pid = Number(record.value) || undefined;
        if (killPending) killNow();
      } else if (record.kind === 'E') {
        // The shell is exiting. A leftover child may keep the pipes (and an ssh session) open.
        exitCode = Number(record.value);
        startDrain();
      }
    });
    const outDecoder = new StringDecoder('utf8');
    const errDecoder = new StringDecoder('utf8');
    child.stdout?.on('data', (chunk: Buffer) => filter.push(textOf(outDecoder, chunk)));
    child.stderr?.on('data', (chunk: Buffer) => collect(textOf(errDecoder, chunk)));
    child.stdin?.on('error', () => {
      // The command may exit without reading its input; that is not an error.
    });
    child.stdin?.end(watch.stdin ?? '');

    let killPending = false;
    let killFallback: NodeJS.Timeout | undefined;
    const killNow = (): void => {
      killPending = false;
      clearTimeout(killFallback);
      void watch.kill(pid);
    };
    const stop = (why: 'timeout' | 'abort'): void => {
      if (settled || timedOut || interrupted) return;
      if (why === 'timeout') timedOut = true;
      else interrupted = true;
      if (pid !== undefined) {
        killNow();
        return;
      }
      // Not started yet: a remote group can only be killed once its pid is known, so wait a
      // little for it, then kill what we can reach.
      killPending = true;
      killFallback = setTimeout(killNow, PID_WAIT_MS);
    };
    const timer = setTimeout(() => stop('timeout'), watch.timeoutMs);
    const heartbeat =
      watch.onActivity && watch.activityIntervalMs > 0
        ? setInterval(touchActivity, watch.activityIntervalMs)
        : undefined;
    const onAbort = (): void => stop('abort');
    watch.signal?.addEventListener('abort', onAbort, { once: true });
    // It may have aborted while the backend was still connecting.
    if (watch.signal?.aborted) onAbort();

    const finish = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drainTimer);
      clearTimeout(killFallback);
      clearInterval(heartbeat);
      watch.signal?.removeEventListener('abort', onAbort);
      filter.push(outDecoder.end());
      filter.end();
      collect(errDecoder.end());
      child.stdout?.destroy();
      child.stderr?.destroy();
      // Only a client (ssh, docker exec) can still be alive here, held open by a leftover child.
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      resolve({
        exitCode,
        timedOut,
        interrupted,
        ...(cwd === undefined ? {} : { cwd }),
        ...(pid === undefined ? {} : { pid }),
      });
    };
    child.once('error', (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(heartbeat);
      watch.signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.once('exit', (code) => {
      if (code !== null || exitCode === null || timedOut || interrupted) exitCode = code;
      // A background child may hold the pipes open for ever; read a little longer, then stop.
      startDrain();
    });
    child.once('close', finish);
  });
}

function lastLineOf(text: string): string {
  const lines = text.split(/[\r\n]+/);
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]?.trim();
    if (line) return line.slice(0, 200);
  }
  return '';
}
