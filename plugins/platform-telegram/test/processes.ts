/**
 * Real processes for the end-to-end tests: the built `hermes-gateway` (this plugin is bundled
 * with it, so `plugins.enabled` names it and the gateway loads this package's `dist`), and the
 * testkit's scripted model (`hermes-testkit serve`). Both are started by file path, so this
 * plugin imports no workspace package but the SDK.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const at = (path: string) => fileURLToPath(new URL(path, import.meta.url));
export const GATEWAY_BIN = at('../../../apps/gateway/dist/bin.js');
export const TESTKIT_BIN = at('../../../packages/testkit/dist/bin.js');
export const PLUGIN_DIST = at('../dist/index.js');
export const BUILD_COMMAND =
  'npx turbo run build --filter=@hermes/gateway-server --filter=@hermes/testkit --filter=@hermes/plugin-platform-telegram';

/** Fails with the command that builds what is missing (never skips). */
export function requireBuild(): void {
  for (const file of [GATEWAY_BIN, TESTKIT_BIN, PLUGIN_DIST]) {
    if (!existsSync(file)) throw new Error(`${file} does not exist: build first: ${BUILD_COMMAND}`);
  }
}

/** A child process whose output is collected, with a wait for output matching a pattern. */
export class Child {
  out = '';
  readonly exited: Promise<number | null>;
  readonly #proc: ChildProcess;
  readonly #waiters: { pattern: RegExp; resolve: (m: RegExpMatchArray) => void }[] = [];

  constructor(args: readonly string[], env: NodeJS.ProcessEnv, cwd?: string) {
    this.#proc = spawn(process.execPath, args, {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(cwd ? { cwd } : {}),
    });
    const take = (chunk: Buffer) => {
      this.out += chunk.toString();
      for (const waiter of [...this.#waiters]) {
        const match = this.out.match(waiter.pattern);
        if (match) {
          this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
          waiter.resolve(match);
        }
      }
    };
    this.#proc.stdout?.on('data', take);
    this.#proc.stderr?.on('data', take);
    this.exited = new Promise((resolve) => this.#proc.once('exit', (code) => resolve(code)));
  }

  /** Resolves at the first output matching `pattern`; rejects if the process exits first. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray> {
    const match = this.out.match(pattern);
    if (match) return Promise.resolve(match);
    const seen = new Promise<RegExpMatchArray>((resolve) =>
      this.#waiters.push({ pattern, resolve }),
    );
    const died = this.exited.then((code) => {
      throw new Error(`exited ${code} before ${pattern}: ${this.out}`);
    });
    return Promise.race([seen, died]);
  }

  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null> {
    if (this.#proc.exitCode === null && this.#proc.signalCode === null) this.#proc.kill('SIGTERM');
    return this.exited;
  }
}

/** Starts `hermes-testkit serve` with `turns`; resolves its base URL (`…/v1`) and the child. */
export async function startModel(home: string, turns: readonly object[]) {
  const file = join(home, 'script.json');
  writeFileSync(file, JSON.stringify({ turns }));
  const child = new Child([TESTKIT_BIN, 'serve', '--script', file], process.env);
  const [, url] = await child.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
  return { child, baseUrl: `${url}/v1` };
}

/** Starts `hermes-gateway run` on `home` with `env` added, and resolves once it is ready. */
export async function startGateway(home: string, env: Record<string, string>): Promise<Child> {
  const full: NodeJS.ProcessEnv = {
    ...process.env,
    HERMES_HOME: home,
    OPENAI_API_KEY: 'sk-test-provider-key',
    ...env,
  };
  delete full.TELEGRAM_WEBHOOK_SECRET;
  const child = new Child([GATEWAY_BIN, 'run'], full, home);
  await child.waitFor(/gateway ready/);
  return child;
}
