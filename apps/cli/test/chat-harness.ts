/**
 * Helpers for the chat end-to-end tests: a config.yaml pointing at a testkit server in the test's
 * HERMES_HOME, a temporary working directory, and the built `dist/bin.js` run as a subprocess —
 * either to completion, or interactively with stdin as a pipe.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, hermes, type SpawnResult } from './spawn-hermes.ts';

export { BIN } from './spawn-hermes.ts';

/** Fails clearly when the CLI has not been built. */
export function requireBuild(): void {
  if (!existsSync(BIN)) {
    throw new Error(`${BIN} does not exist: build the CLI first (cd apps/cli && npx tsup).`);
  }
}

/** The test's HERMES_HOME (set per test by tools/test-setup/hermes-home.ts). */
export function hermesHome(): string {
  const home = process.env.HERMES_HOME;
  if (!home) throw new Error('HERMES_HOME is not set; the shared test setup should set it');
  return home;
}

/** Writes config.yaml for the scripted model at `serverUrl`. */
export function configureScriptedModel(serverUrl: string, extra = ''): void {
  writeFileSync(
    join(hermesHome(), 'config.yaml'),
    `model:\n  provider: openai\n  default: scripted-model\n  base_url: ${serverUrl}/v1\n${extra}`,
  );
}

/** A fresh temporary working directory. */
export function workDir(): string {
  return mkdtempSync(join(tmpdir(), 'hermes-work-'));
}

/** What a finished run printed. */
export type RunResult = SpawnResult;

/** Runs `hermes …args` to completion in `cwd`, stdin closed, without colours. */
export function runHermes(
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<RunResult> {
  return hermes(args, { NO_COLOR: '1', ...env }, cwd);
}

/** An interactive `hermes` with piped stdin. */
export class Interactive {
  readonly child: ChildProcessWithoutNullStreams;
  stdout = '';
  stderr = '';
  readonly exited: Promise<number | null>;

  constructor(args: readonly string[], cwd: string) {
    this.child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stdout.setEncoding('utf8').on('data', (c: string) => {
      this.stdout += c;
    });
    this.child.stderr.setEncoding('utf8').on('data', (c: string) => {
      this.stderr += c;
    });
    this.exited = new Promise((resolve) => this.child.on('close', (code) => resolve(code)));
  }

  /** Types one line. */
  send(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  /** Resolves once stdout contains `text` `count` times; rejects after `timeoutMs` with the output so far. */
  async waitFor(text: string, { count = 1, timeoutMs = 20_000 } = {}): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (occurrences(this.stdout, text) < count) {
      if (Date.now() > deadline) {
        throw new Error(
          `timed out waiting for ${JSON.stringify(text)} ×${count}\n--- stdout:\n${this.stdout}\n--- stderr:\n${this.stderr}`,
        );
      }
      if (this.child.exitCode !== null) {
        throw new Error(
          `hermes exited (${this.child.exitCode}) before printing ${JSON.stringify(text)}\n--- stdout:\n${this.stdout}\n--- stderr:\n${this.stderr}`,
        );
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** Closes stdin and waits for the exit code. */
  async end(): Promise<number | null> {
    this.child.stdin.end();
    return this.exited;
  }

  /** Kills the process if the test failed midway. */
  kill(): void {
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }
}

/** How many times `needle` occurs in `haystack`. */
export function occurrences(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

/** Polls until `path` exists. */
export async function waitForFile(path: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(path)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${path}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
