/**
 * Runs the built `hermes` binary (dist/bin.js) as a real subprocess, for end-to-end tests. These
 * tests never skip: without a build each one fails, saying how to build (`verify` and
 * `turbo run test` build first). The check runs in the test itself — in {@link hermes}, the
 * chat harness, or first thing in a test that reads `dist/` — not in a `beforeAll`, whose
 * failure vitest reports as skipped tests.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The built executable. */
export const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

/** The one-file build `bin.js` runs (see src/code-cache.ts). */
export const BUNDLE = fileURLToPath(new URL('../dist/hermes.cjs', import.meta.url));

/** What to type to build the files the end-to-end tests run. */
export const BUILD_COMMAND = 'cd apps/cli && npx tsup';

/** Throws unless every file in `files` exists, naming the missing one and the build command. */
export function requireBuild(files: readonly string[] = [BIN, BUNDLE]): void {
  const missing = files.find((file) => !existsSync(file));
  if (missing !== undefined) {
    throw new Error(
      `${missing} does not exist: run the build first: ${BUILD_COMMAND} ` +
        '(or `npx -y pnpm@12.4.2 run verify`, which builds before testing).',
    );
  }
}

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
    requireBuild();
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
