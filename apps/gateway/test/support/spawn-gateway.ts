/**
 * Runs the built `hermes-gateway` (dist/bin.js) as a real subprocess for the end-to-end tests,
 * against a temporary data home whose config.yaml points the model at a @hermes/testkit scripted
 * server. These tests never skip: without a build each one fails naming the build command. The
 * check runs inside each test (through {@link startGateway} / {@link runGateway}), never in a
 * `beforeAll`, whose failure vitest reports as skipped tests.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ScriptBuilder, type ScriptedServer, startScriptedServer } from '@hermes/testkit';
import OpenAI from 'openai';

/** The built executable. */
export const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

/** What to type (from the repository root) to build what the end-to-end tests run. */
export const BUILD_COMMAND = 'cd packages/runtime && npx tsup && cd ../../apps/gateway && npx tsup';

/** A 32-character bearer key. */
export const E2E_KEY = 'e2e-key-0123456789abcdef01234567';

/** Backstop for anything awaited from the subprocess: a loaded machine is slow, never this slow. */
export const BACKSTOP_MS = 45_000;

/** Throws unless every file in `files` exists, naming the missing one and the build command. */
export function requireBuild(files: readonly string[] = [BIN]): void {
  const missing = files.find((file) => !existsSync(file));
  if (missing !== undefined) {
    throw new Error(`${missing} does not exist: run the build first: ${BUILD_COMMAND}`);
  }
}

/** A data home, a working directory for the agents, and the config.yaml between them. */
export interface GatewayHome {
  readonly home: string;
  readonly workdir: string;
  remove(): void;
}

/** What {@link makeHome} writes besides the model and the agents' working directory. */
export interface HomeOptions {
  /** More `platforms.api_server` keys, one `key: value` per line. */
  readonly apiServer?: readonly string[];
  /** More top-level sections. */
  readonly yaml?: string;
}

/**
 * A fresh data home whose config.yaml uses `model`, puts the API server on a free port
 * (`platforms.api_server.port: 0`: `API_SERVER_PORT` accepts 1–65535 only) and adds `options`,
 * with the agents working in `<home>/work`.
 */
export function makeHome(
  model: ScriptedServer | undefined,
  options: HomeOptions = {},
): GatewayHome {
  const home = mkdtempSync(join(tmpdir(), 'hermes-gw-e2e-'));
  const workdir = join(home, 'work');
  mkdirSync(workdir);
  const modelYaml = model
    ? `model:\n  provider: openai\n  default: scripted-model\n  base_url: ${model.baseUrl('openai-chat')}\n`
    : '';
  const apiServer = ['port: 0', ...(options.apiServer ?? [])].map((line) => `    ${line}\n`);
  // No session titles unless a test asks: a title request would take the next scripted answer.
  const learning = /^learning:/m.test(options.yaml ?? '') ? '' : 'learning:\n  titles: false\n';
  writeFileSync(
    join(home, 'config.yaml'),
    `${modelYaml}${learning}terminal:\n  cwd: ${workdir}\nplatforms:\n  api_server:\n${apiServer.join('')}${options.yaml ?? ''}`,
  );
  return { home, workdir, remove: () => rmSync(home, { recursive: true, force: true }) };
}

/** How a finished run ended. */
export interface ExitResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A running gateway process. */
export interface RunningGateway {
  readonly child: ChildProcess;
  /** `http://127.0.0.1:PORT` from the startup line. */
  readonly url: string;
  readonly client: OpenAI;
  readonly home: GatewayHome;
  stdout(): string;
  stderr(): string;
  /** Resolves when stdout matches `pattern` (backstop: {@link BACKSTOP_MS}). */
  waitForStdout(pattern: RegExp): Promise<RegExpMatchArray>;
  /** `fetch` on the gateway with the key unless `headers.authorization` says otherwise. */
  request(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  readonly exited: Promise<ExitResult>;
  /** SIGTERM, then the exit. */
  stop(): Promise<ExitResult>;
}

/** The environment of a spawned gateway: the test's own, the provider key, and `env`. */
function childEnv(home: string, env: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, HERMES_HOME: home, OPENAI_API_KEY: 'sk-e2e-provider', ...env };
}

function spawnBin(
  home: GatewayHome,
  args: readonly string[],
  env: Record<string, string>,
): { child: ChildProcess; out: { stdout: string; stderr: string }; exited: Promise<ExitResult> } {
  requireBuild();
  const child = spawn(process.execPath, [BIN, ...args], {
    env: childEnv(home.home, env),
    cwd: home.workdir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    out.stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    out.stderr += chunk;
  });
  const exited = new Promise<ExitResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, ...out }));
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), BACKSTOP_MS * 2);
  void exited.finally(() => clearTimeout(killer)).catch(() => undefined);
  return { child, out, exited };
}

/** Runs the binary to its end (for runs that refuse to start). */
export async function runGateway(
  home: GatewayHome,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<ExitResult> {
  return spawnBin(home, args, env).exited;
}

function waitFor(
  read: () => string,
  child: ChildProcess,
  pattern: RegExp,
): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = read().match(pattern);
      if (!match) return false;
      cleanup();
      resolve(match);
      return true;
    };
    const onClose = () => {
      if (!check()) {
        cleanup();
        reject(new Error(`the gateway exited before printing ${pattern}:\n${read()}`));
      }
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`no ${pattern} within ${BACKSTOP_MS} ms:\n${read()}`));
    }, BACKSTOP_MS);
    const cleanup = () => {
      clearTimeout(timer);
      child.stdout?.off('data', check);
      child.off('close', onClose);
    };
    child.stdout?.on('data', check);
    child.on('close', onClose);
    check();
  });
}

/**
 * Starts `hermes-gateway run` on `home` with `API_SERVER_ENABLED=true` and {@link E2E_KEY}, and
 * resolves once it printed where it listens (the real port: config.yaml asks for port 0).
 */
export async function startGateway(
  home: GatewayHome,
  env: Record<string, string> = {},
): Promise<RunningGateway> {
  const { child, out, exited } = spawnBin(home, ['run'], {
    API_SERVER_ENABLED: 'true',
    API_SERVER_KEY: E2E_KEY,
    ...env,
  });
  const [, url] = await waitFor(
    () => out.stdout,
    child,
    /api_server listening on (http:\/\/127\.0\.0\.1:\d+)\n/,
  ).catch((error: Error) => {
    throw new Error(`${error.message}\nstderr:\n${out.stderr}`);
  });
  const base = url as string;
  return {
    child,
    url: base,
    home,
    client: new OpenAI({ baseURL: `${base}/v1`, apiKey: E2E_KEY, maxRetries: 0 }),
    stdout: () => out.stdout,
    stderr: () => out.stderr,
    waitForStdout: (pattern) => waitFor(() => out.stdout, child, pattern),
    request(path, init = {}) {
      const { json, headers, ...rest } = init;
      return fetch(`${base}${path}`, {
        ...rest,
        headers: {
          authorization: `Bearer ${E2E_KEY}`,
          ...(json === undefined ? {} : { 'content-type': 'application/json' }),
          ...(headers as Record<string, string> | undefined),
        },
        ...(json === undefined
          ? {}
          : { method: rest.method ?? 'POST', body: JSON.stringify(json) }),
      });
    },
    exited,
    stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Starts a scripted model server (a fresh script per test goes in with `reset`). */
export function startModel(turns: ScriptBuilder): Promise<ScriptedServer> {
  return startScriptedServer(turns);
}

/** The gateway's log file in `home`. */
export function gatewayLog(home: GatewayHome): string {
  return readFileSync(join(home.home, 'logs', 'gateway.log'), 'utf8');
}

/** Resolves once `condition` holds, checking on every tick of `interval` ms (backstopped). */
export async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + BACKSTOP_MS;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
