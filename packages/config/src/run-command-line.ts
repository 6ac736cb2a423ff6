/** Somewhere to write text: `process.stdout`, a stream, or a test's collector. */
export interface TextSink {
  write(chunk: string): unknown;
}

/** Where a command-line entry point writes, and the environment it reads. */
export interface CommandLineIo {
  /** Normal output: answers, help, version. */
  readonly stdout: TextSink;
  /** Errors, refusals and progress. */
  readonly stderr: TextSink;
  /** The environment (for `HERMES_HOME`); defaults to `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * The exit codes every Hermes binary uses: `ok` (0) for success, including `--help` and
 * `--version`; `failure` (1) for a valid request that could not be done; `usage` (2) for a bad
 * command line, reported on stderr with the offending argument named.
 */
export const ExitCode = { ok: 0, failure: 1, usage: 2 } as const;

/** A command-line entry point: arguments in, exit code out; it never calls `process.exit`. */
export type CommandLineMain = (argv: readonly string[], io?: CommandLineIo) => Promise<number>;

/**
 * Runs `main` on the process's arguments and leaves its result in `process.exitCode`, so pending
 * output is flushed before the process ends. An unexpected throw is printed with its stack under
 * the program's name and exits 1. A closed stdout pipe (`hermes --help | head -1`) is not an error.
 */
export async function runCommandLine(program: string, main: CommandLineMain): Promise<void> {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  try {
    process.exitCode = await main(process.argv.slice(2));
  } catch (error) {
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`${program}: unexpected error: ${detail}\n`);
    process.exitCode = 1;
  }
}
