/**
 * Running the outside programs `hermes plugins` needs (`npm`, `tar`): a seam, so the npm path can
 * be tested without a network by a runner that records the command line instead.
 */
import { spawn } from 'node:child_process';

/** How a program ended and what it printed. */
export interface CommandOutcome {
  /** The exit code; `null` when a signal ended it or it could not start. */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a program with arguments (never through a shell). */
export abstract class CommandRunner {
  /** Runs `command args…` in `cwd`; resolves when it has ended, never rejects. */
  abstract run(command: string, args: readonly string[], cwd: string): Promise<CommandOutcome>;
}

/** The real runner: a child process, its output collected. */
export class ChildProcessRunner extends CommandRunner {
  run(command: string, args: readonly string[], cwd: string): Promise<CommandOutcome> {
    return new Promise((resolve) => {
      let stdout = '';
      let stderr = '';
      const child = spawn(command, [...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
      });
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
      });
      // A missing program (`npm` not on PATH) is an outcome too, with the reason as its output.
      child.on('error', (error) =>
        resolve({ code: null, stdout, stderr: `${stderr}${error.message}` }),
      );
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }
}

/** The last `lines` lines of a program's output, for an error message. */
export function outputTail(outcome: CommandOutcome, lines = 20): string {
  const text = `${outcome.stdout}\n${outcome.stderr}`.trim();
  return text.split('\n').slice(-lines).join('\n');
}
