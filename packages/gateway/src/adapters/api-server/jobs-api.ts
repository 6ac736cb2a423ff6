/**
 * The scheduled-jobs service the API server exposes under `/api/jobs`. The gateway does not know
 * what a job is (cron lives in its own package): the host hands the adapter an implementation that
 * validates bodies and returns plain JSON-able records.
 */

/** A body the jobs service refused: answered 400 with this message. */
export class JobInputError extends Error {
  /** The body field that was wrong, when one was. */
  readonly param: string | null;

  constructor(message: string, param: string | null = null) {
    super(message);
    this.name = 'JobInputError';
    this.param = param;
  }
}

/**
 * Scheduled jobs as the API sees them. Records are returned as they are stored; `undefined` means
 * "no job with that id" (404). Bad bodies throw {@link JobInputError} (400).
 */
export interface JobsApi {
  list(): Promise<readonly unknown[]>;
  get(id: string): Promise<unknown>;
  create(body: unknown): Promise<unknown>;
  update(id: string, body: unknown): Promise<unknown>;
  remove(id: string): Promise<boolean>;
  pause(id: string): Promise<unknown>;
  resume(id: string): Promise<unknown>;
  /** Starts the job now in the background; resolves with the job once it is claimed. */
  run(id: string): Promise<unknown>;
}
