/**
 * Helpers for the chat end-to-end tests: a config.yaml pointing at a testkit server in the test's
 * HERMES_HOME, a temporary working directory, and the built `dist/bin.js` run as a subprocess —
 * either to completion, or interactively with stdin as a pipe.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, hermes, requireBuild, type SpawnResult } from './spawn-hermes.ts';
import { StreamText, type WaitOptions } from './stream-text.ts';

export { BIN, requireBuild } from './spawn-hermes.ts';

/** The test's HERMES_HOME (set per test by tools/test-setup/hermes-home.ts). */
export function hermesHome(): string {
  const home = process.env.HERMES_HOME;
  if (!home) throw new Error('HERMES_HOME is not set; the shared test setup should set it');
  return home;
}

/**
 * Writes config.yaml for the scripted model at `serverUrl`, with session titles off (a title
 * request would take the next scripted answer) unless `extra` has its own `learning:` section.
 */
export function configureScriptedModel(serverUrl: string, extra = ''): void {
  const learning = /^learning:/m.test(extra) ? '' : 'learning:\n  titles: false\n';
  writeFileSync(
    join(hermesHome(), 'config.yaml'),
    `model:\n  provider: openai\n  default: scripted-model\n  base_url: ${serverUrl}/v1\n${extra}${extra.endsWith('\n') || extra === '' ? '' : '\n'}${learning}`,
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
  readonly #stdout: StreamText;
  readonly #stderr: StreamText;
  readonly exited: Promise<number | null>;

  constructor(args: readonly string[], cwd: string) {
    requireBuild();
    this.child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.#stderr = new StreamText(this.child.stderr);
    this.#stdout = new StreamText(this.child.stdout, () => `\n--- stderr:\n${this.stderr}`);
    this.exited = new Promise((resolve) => this.child.on('close', (code) => resolve(code)));
  }

  /** Everything printed on stdout so far. */
  get stdout(): string {
    return this.#stdout.text;
  }

  /** Everything printed on stderr so far. */
  get stderr(): string {
    return this.#stderr.text;
  }

  /** Types one line. */
  send(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  /**
   * Resolves once stdout contains `text` `count` times; fails as soon as hermes exits without
   * printing it, or after the backstop, with the output so far.
   */
  waitFor(text: string, options?: WaitOptions): Promise<void> {
    return this.#stdout.waitFor(text, options);
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

export { occurrences } from './stream-text.ts';

/** Polls until `path` exists; the timeout is a backstop for a hang. */
export async function waitForFile(path: string, timeoutMs = 60_000): Promise<void> {
  await pollUntil(() => existsSync(path), `${path} to exist`, timeoutMs);
}

/** Whether process `pid` has ended (gone, or a zombie nobody has reaped yet). */
export function processEnded(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    // Linux: the state after the command name in /proc/PID/stat; Z is a zombie.
    return /\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Polls until process `pid` has ended; the timeout is a backstop for one that never does. */
export async function waitForExit(pid: number, timeoutMs = 60_000): Promise<void> {
  await pollUntil(() => processEnded(pid), `process ${pid} to end`, timeoutMs);
}

/** Kills process `pid` if it is still running (cleanup after a failed test). */
export function killIfRunning(pid: number): void {
  if (!processEnded(pid)) process.kill(pid, 'SIGKILL');
}

async function pollUntil(done: () => boolean, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`gave up after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
