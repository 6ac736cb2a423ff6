/**
 * Drives a child process that reports JSON lines on stdout: collects the reports, waits for one
 * that matches (rejecting if the child exits first), and resolves its exit.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** How a child ended. */
export interface ChildExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
}

/** A running child and its reports so far. */
export interface JsonLinesChild<R> {
  readonly child: ChildProcessWithoutNullStreams;
  readonly reports: R[];
  /** Resolves with the first report (past or future) that matches. */
  waitFor(match: (report: R) => boolean): Promise<R>;
  readonly exited: Promise<ChildExit>;
}

/** Starts `node <script> <JSON config>`. */
export function startJsonLinesChild<R>(script: string, config: unknown): JsonLinesChild<R> {
  const child = spawn(process.execPath, [script, JSON.stringify(config)], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const reports: R[] = [];
  const waiters: Array<{ match: (r: R) => boolean; resolve: (r: R) => void }> = [];
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    const report = JSON.parse(line) as R;
    reports.push(report);
    for (const waiter of waiters.filter((w) => w.match(report))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(report);
    }
  });
  const exited = new Promise<ChildExit>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
  const waitFor = (match: (report: R) => boolean) =>
    new Promise<R>((resolve, reject) => {
      const seen = reports.find(match);
      if (seen !== undefined) return resolve(seen);
      waiters.push({ match, resolve });
      void exited.then((exit) =>
        reject(new Error(`child exited (${exit.code ?? exit.signal}) first: ${exit.stderr}`)),
      );
    });
  return { child, reports, waitFor, exited };
}
