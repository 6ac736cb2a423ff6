/**
 * Test-side helpers for `child-writer.mjs`: locating the built store the children import, and
 * driving a child process over its JSON-lines stdout.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const packageRoot = fileURLToPath(new URL('../..', import.meta.url));
const childScript = fileURLToPath(new URL('./child-writer.mjs', import.meta.url));

/** The newest modification time of any file under `dir`. */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const mtime = entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs;
    newest = Math.max(newest, mtime);
  }
  return newest;
}

/**
 * The path of the built `dist/index.js`, which child processes import because they run under
 * plain `node`. Throws a message saying how to build when it is missing or older than `src/`:
 * testing a stale build would test other code than the sources.
 */
export function builtEntry(): string {
  const entry = join(packageRoot, 'dist', 'index.js');
  const hint = 'run `npx tsup` in packages/state (turbo `test` builds first)';
  if (!existsSync(entry))
    throw new Error(`${entry} is missing: the child writers need it; ${hint}`);
  if (statSync(entry).mtimeMs < newestMtime(join(packageRoot, 'src'))) {
    throw new Error(`${entry} is older than src/: ${hint}`);
  }
  return entry;
}

/** What a writer is told to do; see `child-writer.mjs`. */
export interface WriterConfig {
  readonly mode: 'concurrent' | 'crash';
  readonly entry: string;
  readonly dbPath: string;
  readonly worker: string;
  readonly sessionId: string;
  readonly sharedSessionId?: string;
  /** Concurrent mode: stop after this long (the benchmark). Absent: stop at the `stop` line. */
  readonly durationMs?: number;
  /** Concurrent mode without `durationMs`: report `progress` after this many turns. */
  readonly progressAfterTurns?: number;
  readonly batchSize?: number;
}

/** One JSON line a writer printed. */
export type WriterReport =
  | { type: 'ready' }
  | { type: 'progress'; turns: number }
  | { type: 'committed'; batch: number; ids: number[] }
  | { type: 'done'; worker: string; own: number; shared: number; appends: number };

/** How a writer process ended. */
export interface WriterExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
}

/** A running writer: its reports so far, a way to wait for more, and its exit. */
export interface Writer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly reports: WriterReport[];
  /** Resolves once a report satisfies `match`; rejects if the process exits first. */
  waitFor(match: (report: WriterReport) => boolean): Promise<WriterReport>;
  readonly exited: Promise<WriterExit>;
}

/** Starts `child-writer.mjs` under plain `node` with this config. */
export function startWriter(config: WriterConfig): Writer {
  const child = spawn(process.execPath, [childScript, JSON.stringify(config)], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const reports: WriterReport[] = [];
  const waiters: Array<{
    match: (r: WriterReport) => boolean;
    resolve: (r: WriterReport) => void;
  }> = [];
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    const report = JSON.parse(line) as WriterReport;
    reports.push(report);
    for (const waiter of waiters.filter((w) => w.match(report))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(report);
    }
  });
  const exited = new Promise<WriterExit>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
  const waitFor = (match: (report: WriterReport) => boolean) =>
    new Promise<WriterReport>((resolve, reject) => {
      const seen = reports.find(match);
      if (seen) return resolve(seen);
      waiters.push({ match, resolve });
      void exited.then((exit) =>
        reject(new Error(`writer ${config.worker} exited (${exit.code}) first: ${exit.stderr}`)),
      );
    });
  return { child, reports, waitFor, exited };
}
