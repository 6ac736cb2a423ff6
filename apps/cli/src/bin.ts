#!/usr/bin/env node
/**
 * The `hermes` executable: runs {@link main} on the process's arguments and leaves the exit code
 * in `process.exitCode`, so pending output is flushed before the process ends.
 */
import { main } from './index.js';

// `hermes --help | head -1` closes the pipe early; that is not an error worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  process.stderr.write(
    `hermes: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
}
