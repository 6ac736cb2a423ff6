/** What every `hermes` subcommand receives besides its arguments. */
import type { CommandLineIo } from '@hermes/config';

/** Streams, environment and the resolved data home of one `hermes` invocation. */
export interface CommandContext extends CommandLineIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The data home after `--profile` (`HERMES_HOME/profiles/<name>` for a named profile). */
  readonly hermesHome: string;
  /** The profile named with `-p/--profile`, if any. */
  readonly profile?: string;
  /** Standard input, for the REPL and prompts. Default `process.stdin`. */
  readonly stdin?: NodeJS.ReadableStream;
  /** Ends a long-running command (`logs --follow`) as SIGINT would; for embedders and tests. */
  readonly signal?: AbortSignal;
}

/** A subcommand module: `run` gets the arguments after the command word. */
export interface CommandModule {
  run(args: readonly string[], ctx: CommandContext): Promise<number>;
}
