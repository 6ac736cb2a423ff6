/**
 * End-to-end: runs the built executable, dist/bin.js, as a real subprocess. Needs a build first;
 * `turbo run test` builds it (see this package's turbo.json).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const { version } = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
) as { version: string };

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * How long a run may take before it is killed (its exit code is then `null`, failing the test).
 * Only a backstop against a hang: a loaded machine can take seconds just to start node.
 */
const KILL_AFTER_MS = 45_000;

/** Runs `node dist/bin.js ...args` with this test's HERMES_HOME (or `env` on top). */
function gateway(args: readonly string[], env: Record<string, string> = {}): Promise<Result> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { ...process.env, ...env },
      timeout: KILL_AFTER_MS,
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
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

beforeAll(() => {
  if (!existsSync(bin)) {
    throw new Error(
      `${bin} does not exist: build the gateway server first ` +
        '(`npx -y pnpm@12.4.2 exec turbo run build --filter=@hermes/gateway-server`, ' +
        'or run the tests through `turbo run test`, which builds first).',
    );
  }
});

describe('dist/bin.js', { timeout: KILL_AFTER_MS + 15_000 }, () => {
  it('starts with a node shebang', () => {
    expect(readFileSync(bin, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
  });

  it('--version prints the package version and exits 0', async () => {
    const result = await gateway(['--version']);
    expect(result).toEqual({ code: 0, stdout: `hermes-gateway ${version}\n`, stderr: '' });
  });

  it('--help prints the usage with this test’s HERMES_HOME and exits 0', async () => {
    const result = await gateway(['--help']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('Usage:\n  hermes-gateway [run|start] [options]');
    expect(result.stdout).toContain(`Data home: ${process.env.HERMES_HOME} (from HERMES_HOME)`);
  });

  it('with no arguments explains, prints the help and exits 0 without hanging', async () => {
    const home = join(process.env.HERMES_HOME as string, 'missing');
    const result = await gateway([], { HERMES_HOME: home });
    // Exit code 0 means it ended by itself: a run that hung is killed, and its code is null.
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^The gateway runtime arrives in a later release;/);
    expect(result.stdout).toContain('Usage:');
    expect(existsSync(home)).toBe(false);
  });

  it('a bad flag names it on stderr and exits 2', async () => {
    const result = await gateway(['--no-such-flag']);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "hermes-gateway: unknown option '--no-such-flag'\nRun 'hermes-gateway --help' for usage.\n",
    });
  });

  it('run exits 1 because the runtime is not in this version', async () => {
    const result = await gateway(['run']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('hermes-gateway: cannot run:');
  });
});
