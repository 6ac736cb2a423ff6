/** Runs the built `hermes` binary (dist/bin.js) as a real subprocess, for end-to-end tests. */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The built executable. */
export const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

/** Whether the binary has been built (`cd apps/cli && npx tsup`). */
export const BUILT = existsSync(BIN);

/** What a run printed and how it ended. */
export interface SpawnResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `node dist/bin.js ...args` with this test's HERMES_HOME plus `env`, in `cwd` (default:
 * the test process's); stdin closed.
 */
export function hermes(
  args: readonly string[],
  env: Record<string, string> = {},
  cwd?: string,
): Promise<SpawnResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, ...env },
      ...(cwd === undefined ? {} : { cwd }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
