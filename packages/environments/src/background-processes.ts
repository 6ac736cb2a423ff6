/** Long-running commands of one session: start, poll, tail, wait, write to stdin, kill. */
import type { ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { HermesError } from '@hermes/protocol';
import {
  type BackgroundLaunch,
  type BackgroundStartOptions,
  type BackgroundStatus,
  launcherFor,
  type SpawnFunction,
} from './background-launch.js';
import type { ExecutionEnvironment } from './execution-environment.js';
import { MarkerFilter } from './marker-filter.js';
import { OutputRing } from './ring-buffer.js';
import { textOf } from './run-process.js';

export type { BackgroundLaunch, BackgroundStartOptions, BackgroundStatus, SpawnFunction };

/** A background process as {@link BackgroundProcesses.list} reports it. */
export interface BackgroundProcessInfo {
  readonly id: string;
  readonly command: string;
  /** The process id in its own world (remote for ssh), once known. */
  readonly pid?: number;
  readonly status: BackgroundStatus;
  /** The exit status, `null` while running or when killed by a signal. */
  readonly exitCode: number | null;
  readonly startedAt: number;
  readonly endedAt?: number;
  /** Characters of output so far. */
  readonly outputChars: number;
}

/** What {@link BackgroundProcesses.poll} returns: the state plus output since the last poll. */
export interface BackgroundPoll extends BackgroundProcessInfo {
  readonly output: string;
  /** Characters of new output that fell out of the ring buffer before this poll. */
  readonly dropped: number;
}

/** What {@link BackgroundProcesses.wait} returns. */
export interface BackgroundWait extends BackgroundProcessInfo {
  /** The wait's own timeout passed; the process is still running. */
  readonly timedOut: boolean;
  /** The wait's signal aborted; the process is still running. */
  readonly interrupted: boolean;
}

/** Options of {@link BackgroundProcesses}. */
export interface BackgroundProcessesOptions {
  /** Output kept per process, in characters. Default 200,000. */
  readonly maxBufferChars?: number;
  /** The most processes running at once. Default 32. */
  readonly maxRunning?: number;
}

/** A background-process call named an unknown process or one that cannot take the call. */
export class BackgroundProcessError extends HermesError {
  constructor(message: string) {
    super('environment.background_process', message);
  }
}

interface Entry {
  readonly id: string;
  readonly command: string;
  readonly launch: BackgroundLaunch;
  readonly ring: OutputRing;
  readonly startedAt: number;
  readonly ended: Promise<void>;
  pid?: number;
  status: BackgroundStatus;
  exitCode: number | null;
  endedAt?: number;
  polledTo: number;
}

/**
 * The background processes of one session, on its environment. Output of each is kept in a
 * ring buffer; `poll` returns what is new since the last poll. Killing kills the whole process
 * group (SIGTERM, then SIGKILL), locally or on the remote host.
 */
export class BackgroundProcesses {
  readonly #launch: (command: string, options: BackgroundStartOptions) => Promise<BackgroundLaunch>;
  readonly #entries = new Map<string, Entry>();
  readonly #maxBufferChars: number;
  readonly #maxRunning: number;
  #counter = 0;

  constructor(
    source: ExecutionEnvironment | SpawnFunction,
    options: BackgroundProcessesOptions = {},
  ) {
    this.#launch = launcherFor(source);
    this.#maxBufferChars = options.maxBufferChars ?? 200_000;
    this.#maxRunning = options.maxRunning ?? 32;
  }

  /** Starts `command` in the background and returns its id (and pid when known locally). */
  async start(
    command: string,
    options: BackgroundStartOptions = {},
  ): Promise<{ id: string; pid?: number }> {
    const running = [...this.#entries.values()].filter((e) => e.status === 'running').length;
    if (running >= this.#maxRunning) {
      throw new BackgroundProcessError(
        `${running} background processes are already running; kill or wait for one first`,
      );
    }
    const launch = await this.#launch(command, options);
    this.#counter += 1;
    const id = `proc_${this.#counter}`;
    const ring = new OutputRing(this.#maxBufferChars);
    const entry: Entry = {
      id,
      command,
      launch,
      ring,
      startedAt: Date.now(),
      status: 'running',
      exitCode: null,
      polledTo: 0,
      ended: this.#watch(launch, ring, (pid) => {
        entry.pid = pid;
      }).then(({ code }) => {
        entry.exitCode = code;
        if (entry.status === 'running') entry.status = 'exited';
        entry.endedAt = Date.now();
      }),
    };
    if (launch.marker === undefined && launch.child.pid !== undefined) entry.pid = launch.child.pid;
    this.#entries.set(id, entry);
    return { id, ...(entry.pid === undefined ? {} : { pid: entry.pid }) };
  }

  /** Every process started in this session, oldest first. */
  list(): BackgroundProcessInfo[] {
    return [...this.#entries.values()].map(info);
  }

  /** The state of `id` and its output since the previous poll. */
  poll(id: string): BackgroundPoll {
    const entry = this.#get(id);
    const read = entry.ring.since(entry.polledTo);
    entry.polledTo = read.next;
    return { ...info(entry), output: read.text, dropped: read.dropped };
  }

  /** The last `tail` lines of output still held (all of it when `tail` is absent). */
  log(id: string, options: { tail?: number } = {}): string {
    return this.#get(id).ring.tail(options.tail);
  }

  /** Waits until `id` ends, the timeout passes or the signal aborts, whichever is first. */
  async wait(
    id: string,
    options: { timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<BackgroundWait> {
    const entry = this.#get(id);
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const outcome = await Promise.race<'ended' | 'timeout' | 'abort'>([
      entry.ended.then(() => 'ended' as const),
      new Promise<'timeout'>((resolve) => {
        if (options.timeoutMs !== undefined)
          timer = setTimeout(() => resolve('timeout'), options.timeoutMs);
      }),
      new Promise<'abort'>((resolve) => {
        if (!options.signal) return;
        if (options.signal.aborted) return resolve('abort');
        onAbort = () => resolve('abort');
        options.signal.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
    clearTimeout(timer);
    if (onAbort) options.signal?.removeEventListener('abort', onAbort);
    return { ...info(entry), timedOut: outcome === 'timeout', interrupted: outcome === 'abort' };
  }

  /** Kills `id`'s whole process group and resolves once it has ended. */
  async kill(id: string): Promise<BackgroundProcessInfo> {
    const entry = this.#get(id);
    if (entry.status === 'running') {
      entry.status = 'killed';
      await entry.launch.kill(entry.pid);
      await Promise.race([entry.ended, new Promise((resolve) => setTimeout(resolve, 2_000))]);
    }
    return info(entry);
  }

  /** Writes `data` to `id`'s standard input. */
  async write(id: string, data: string): Promise<void> {
    const stdin = this.#stdin(id);
    await new Promise<void>((resolve, reject) => {
      stdin.write(data, (error) =>
        error
          ? reject(new BackgroundProcessError(`cannot write to ${id}: ${error.message}`))
          : resolve(),
      );
    });
  }

  /** Closes `id`'s standard input (end of file for the process). */
  close(id: string): void {
    this.#stdin(id).end();
  }

  /** Kills every running process; for session end. */
  async dispose(): Promise<void> {
    await Promise.all([...this.#entries.values()].map((entry) => this.kill(entry.id)));
  }

  #stdin(id: string): NonNullable<ChildProcess['stdin']> {
    const entry = this.#get(id);
    const stdin = entry.launch.child.stdin;
    if (entry.status !== 'running' || !stdin || stdin.writableEnded || stdin.destroyed) {
      throw new BackgroundProcessError(`${id} is not running or its stdin is closed`);
    }
    return stdin;
  }

  #get(id: string): Entry {
    const entry = this.#entries.get(id);
    if (!entry) {
      const known = [...this.#entries.keys()].join(', ') || 'none';
      throw new BackgroundProcessError(
        `no background process ${JSON.stringify(id)}; known: ${known}`,
      );
    }
    return entry;
  }

  #watch(
    launch: BackgroundLaunch,
    ring: OutputRing,
    onPid: (pid: number) => void,
  ): Promise<{ code: number | null }> {
    const { child, marker } = launch;
    const out = new StringDecoder('utf8');
    const err = new StringDecoder('utf8');
    const append = (text: string): void => ring.append(text);
    const filter = marker
      ? new MarkerFilter(marker, append, (record) => {
          if (record.kind === 'P' && Number(record.value)) onPid(Number(record.value));
        })
      : undefined;
    child.stdout?.on('data', (chunk: Buffer) => {
      const text = textOf(out, chunk);
      if (filter) filter.push(text);
      else append(text);
    });
    child.stderr?.on('data', (chunk: Buffer) => append(textOf(err, chunk)));
    child.stdin?.on('error', () => {
      // A process that exits without reading its input is not an error.
    });
    return new Promise((resolve) => {
      child.once('error', (error) => {
        append(`\n[could not start: ${error.message}]\n`);
        resolve({ code: null });
      });
      child.once('exit', (code) => {
        // Leftover children may hold the pipes; do not wait for them to close.
        setTimeout(() => {
          filter?.end();
          resolve({ code });
        }, 50);
      });
    });
  }
}

function info(entry: Entry): BackgroundProcessInfo {
  return {
    id: entry.id,
    command: entry.command,
    ...(entry.pid === undefined ? {} : { pid: entry.pid }),
    status: entry.status,
    exitCode: entry.exitCode,
    startedAt: entry.startedAt,
    ...(entry.endedAt === undefined ? {} : { endedAt: entry.endedAt }),
    outputChars: entry.ring.total,
  };
}
