/**
 * `hermes demo`: watch a scripted tool loop run for real, no API key needed. Loads the agent and
 * the testkit server only when it runs.
 */
import { parseArgs } from 'node:util';
import { ExitCode } from '@hermes/config';
import type { CommandContext } from '../command-context.js';

const USAGE = [
  'Usage: hermes demo [--home <dir>] [--keep]',
  '',
  'Plays a bundled, SCRIPTED conversation through the real agent loop, tools and session store.',
  'A local test server plays the model, so no API key is needed. It runs in a temporary working',
  'folder and a temporary data home, both removed afterwards.',
  '',
  'Options:',
  '  --home <dir>  keep the session in this data home instead of a temporary one',
  '  --keep        keep the temporary folders and print where they are',
  '  -h, --help    show this help',
  '',
].join('\n');

/** Runs the command; resolves to the exit code. */
export async function run(args: readonly string[], ctx: CommandContext): Promise<number> {
  let values: { help?: boolean; keep?: boolean; home?: string };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        help: { type: 'boolean', short: 'h' },
        keep: { type: 'boolean' },
        home: { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    ctx.stderr.write(
      `hermes demo: ${(error as Error).message.split('\n')[0]}\nRun 'hermes demo --help' for usage.\n`,
    );
    return ExitCode.usage;
  }
  if (values.help) {
    ctx.stdout.write(USAGE);
    return ExitCode.ok;
  }
  const { runDemo } = await import('../demo/run-demo.js');
  return runDemo({
    stdout: ctx.stdout,
    stderr: ctx.stderr,
    env: ctx.env,
    keep: values.keep === true,
    ...(values.home ? { home: values.home } : {}),
  });
}
