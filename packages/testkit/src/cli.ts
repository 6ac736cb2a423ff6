/**
 * The `hermes-testkit` command line: `serve --script FILE [--port N] [--host H]` runs a scripted
 * server until SIGINT or SIGTERM, so a person or an end-to-end test can point any client at it.
 * Everything goes through {@link main}, which returns an exit code and never exits the process.
 */
import { parseArgs } from 'node:util';
import { isHermesError } from '@hermes/protocol';
import { loadScriptFile } from './load-script.js';
import { type ScriptedServer, startScriptedServer } from './server.js';
import { VERSION } from './version.js';

/** Where {@link main} writes, and what stops `serve` when embedded (instead of process signals). */
export interface TestkitCliIo {
  readonly stdout: { write(chunk: string): unknown };
  readonly stderr: { write(chunk: string): unknown };
  /** When given, `serve` stops when it aborts and ignores SIGINT/SIGTERM. */
  readonly signal?: AbortSignal;
}

/** Exit codes of {@link main}. */
export const TestkitExitCode = { ok: 0, failure: 1, usage: 2 } as const;

const HELP = `hermes-testkit ${VERSION} - a scripted local model server speaking the OpenAI and Anthropic wire protocols

Usage:
  hermes-testkit serve --script FILE [--port N] [--host H]

Options:
  --script FILE   the JSON script of turns to answer with (required)
  --port N        port to listen on (default 0: a free port)
  --host H        interface to listen on (default 127.0.0.1)
  -h, --help      show this help
  -V, --version   print the version

Prints "hermes-testkit listening on http://HOST:PORT" when ready and serves until SIGINT or SIGTERM.
Endpoints: POST /v1/chat/completions, POST /v1/responses, POST /v1/messages, GET /v1/models.
`;

const OPTIONS = {
  script: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
} as const;

class UsageError extends Error {}

function parse(
  argv: readonly string[],
): ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>> {
  try {
    return parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    // node:util's messages name the argument, then add advice about '--' that does not apply here.
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(message.split('. ')[0] ?? message);
  }
}

function parsePort(text: string | undefined): number {
  if (text === undefined) return 0;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65_535) {
    throw new UsageError(`--port must be an integer from 0 to 65535, got '${text}'`);
  }
  return port;
}

function waitForStop(signal: AbortSignal | undefined): Promise<void> {
  if (signal) {
    return new Promise((resolve) => {
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
    });
  }
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

async function serve(
  scriptPath: string,
  port: number,
  host: string,
  io: TestkitCliIo,
): Promise<number> {
  let server: ScriptedServer;
  try {
    server = await startScriptedServer(await loadScriptFile(scriptPath), { port, host });
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    const message = isHermesError(error)
      ? error.message
      : `cannot listen on ${host}:${port}: ${error.message}`;
    io.stderr.write(`hermes-testkit: ${message}\n`);
    return TestkitExitCode.failure;
  }
  io.stdout.write(`hermes-testkit listening on ${server.url}\n`);
  await waitForStop(io.signal);
  await server.close();
  return TestkitExitCode.ok;
}

/**
 * Runs the `hermes-testkit` command line and resolves to its exit code: 0 after `--help`,
 * `--version` or a clean stop of `serve`; 1 when the script file is bad or the port cannot be
 * listened on; 2 for bad arguments (the message names the argument).
 *
 * @param argv - the arguments after the program name, e.g. `process.argv.slice(2)`.
 */
export async function main(
  argv: readonly string[],
  io: TestkitCliIo = { stdout: process.stdout, stderr: process.stderr },
): Promise<number> {
  try {
    const { values, positionals } = parse(argv);
    if (values.help) {
      io.stdout.write(HELP);
      return TestkitExitCode.ok;
    }
    if (values.version) {
      io.stdout.write(`hermes-testkit ${VERSION}\n`);
      return TestkitExitCode.ok;
    }
    const [command, ...extra] = positionals;
    if (command === undefined) throw new UsageError('missing command (expected: serve)');
    if (command !== 'serve') throw new UsageError(`unknown command '${command}' (expected: serve)`);
    if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`);
    if (values.script === undefined) throw new UsageError('serve needs --script FILE');
    return await serve(values.script, parsePort(values.port), values.host ?? '127.0.0.1', io);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`hermes-testkit: ${error.message}\nRun 'hermes-testkit --help' for usage.\n`);
    return TestkitExitCode.usage;
  }
}
