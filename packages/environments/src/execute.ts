/** The options and result of one {@link ExecutionEnvironment.execute} call. */
import { z } from 'zod';

/** A heartbeat from a running command, for status lines and "still working" notices. */
export interface ExecuteActivity {
  /** Milliseconds since the command started. */
  readonly elapsedMs: number;
  /** A short, human-readable note, for example the latest output line. */
  readonly message: string;
}

/** How to run one command. Every field is optional. */
export interface ExecuteOptions {
  /**
   * The directory to run in. Absent means the environment's current working directory, which a
   * `cd` in an earlier command may have changed.
   */
  readonly cwd?: string;
  /**
   * Wall-clock limit in milliseconds. When it passes, the command's whole process group is killed
   * and the result has `timedOut: true`. Absent means the backend's default.
   */
  readonly timeoutMs?: number;
  /**
   * Aborting it kills the command's whole process group promptly; the result has
   * `interrupted: true`. An already-aborted signal means the command does not start.
   */
  readonly signal?: AbortSignal;
  /** Text written to the command's standard input, which is then closed. */
  readonly stdin?: string;
  /** Variables added to (or overriding) the environment's own, for this command only. */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Called while the command runs, at most once per throttle interval, so callers can show that
   * it is alive. Errors it throws are ignored.
   */
  readonly onActivity?: (activity: ExecuteActivity) => void;
  /**
   * The most characters of output the result carries, overriding the backend's default for this
   * call (file operations read large files this way). Longer output keeps its head and tail and
   * is saved whole to `spillPath`.
   */
  readonly maxOutputChars?: number;
}

/**
 * What one command did. It is a result, not an error, whatever the command's exit status:
 * only infrastructure failures reject (see `EnvironmentConnectionError`).
 */
export const ExecuteResultSchema = z.object({
  /** Standard output and standard error, interleaved as they arrived, possibly truncated. */
  output: z.string(),
  /** The exit status, or `null` when the process ended without one (killed by a signal). */
  exitCode: z.number().int().nullable(),
  /** The timeout passed and the command was killed. */
  timedOut: z.boolean(),
  /** The abort signal fired and the command was killed (or never started). */
  interrupted: z.boolean(),
  /** The working directory after the command, which the next command starts in. */
  cwd: z.string().min(1, 'cwd must not be empty'),
  /** Where the full output was saved when it was too long to return whole. */
  spillPath: z.string().min(1, 'spillPath must not be empty').optional(),
});
export type ExecuteResult = z.infer<typeof ExecuteResultSchema>;
