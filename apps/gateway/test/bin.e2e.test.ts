/**
 * End-to-end: runs the built executable, dist/bin.js, as a real subprocess for the command line
 * itself (version, help, bad flags, refusals). Needs a build first; `turbo run test` builds it
 * (see this package's turbo.json), and without one each test fails naming the build command.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, requireBuild } from './support/spawn-gateway.ts';

const bin = BIN;
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
    requireBuild();
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

describe('dist/bin.js', { timeout: KILL_AFTER_MS + 15_000 }, () => {
  it('starts with a node shebang', () => {
    requireBuild();
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

  it('with no arguments runs, and with no adapter enabled says how to enable one (exit 2)', async () => {
    const home = join(process.env.HERMES_HOME as string, 'missing');
    const result = await gateway([], { HERMES_HOME: home });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^hermes-gateway: No platform adapter is enabled/);
    expect(result.stderr).toContain('API_SERVER_ENABLED=true');
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

  it('run refuses an API key shorter than 16 characters with one line and exit 2', async () => {
    const result = await gateway(['run'], {
      API_SERVER_ENABLED: 'true',
      API_SERVER_KEY: 'short-key-123',
      OPENAI_API_KEY: 'sk-e2e',
    });
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'hermes-gateway: API_SERVER_KEY is 13 characters long; the API server needs at least 16. ' +
        'Generate one with `openssl rand -hex 24`.\n',
    });
  });
});
