/**
 * Real processes for the end-to-end test: the built `hermes-gateway` with this plugin installed
 * in the test's HERMES_HOME, and the testkit's scripted model (`hermes-testkit serve`). Both are
 * started by file path, so this plugin imports no workspace package but the SDK. (The pattern of
 * plugins/platform-slack/test/processes.ts.)
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const at = (path: string) => fileURLToPath(new URL(path, import.meta.url));
export const GATEWAY_BIN = at('../../../apps/gateway/dist/bin.js');
export const TESTKIT_BIN = at('../../../packages/testkit/dist/bin.js');
export const PLUGIN_DIST = at('../dist/index.js');
const PLUGIN_ROOT = at('..');
export const BUILD_COMMAND =
  'npx turbo run build --filter=@hermes/gateway-server --filter=@hermes/testkit --filter=@hermes/plugin-platform-discord';

/**
 * Fails with the command that builds what is missing (never skips). This plugin's own `dist` is
 * rebuilt when a source file is newer, so the process never runs stale plugin code.
 */
export function requireBuild(): void {
  for (const file of [GATEWAY_BIN, TESTKIT_BIN]) {
    if (!existsSync(file)) throw new Error(`${file} does not exist: build first: ${BUILD_COMMAND}`);
  }
  const src = join(PLUGIN_ROOT, 'src');
  const newest = Math.max(...readdirSync(src).map((f) => statSync(join(src, f)).mtimeMs));
  if (!existsSync(PLUGIN_DIST) || statSync(PLUGIN_DIST).mtimeMs < newest) {
    execFileSync('npx', ['tsup'], { cwd: PLUGIN_ROOT, stdio: 'ignore' });
  }
}

/** A child process whose output is collected, with a wait for a line matching a pattern. */
export class Child {
  out = '';
  readonly exited: Promise<number | null>;
  readonly #proc: ChildProcess;
  readonly #waiters: { pattern: RegExp; resolve: (m: RegExpMatchArray) => void }[] = [];

  constructor(args: readonly string[], env: NodeJS.ProcessEnv) {
    this.#proc = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
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
    if (this.#proc.exitCode === null) this.#proc.kill('SIGTERM');
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

/** Installs this plugin (its built entry) as `HERMES_HOME/plugins/platform-discord`. */
export function installPlugin(home: string): void {
  const folder = join(home, 'plugins', 'platform-discord');
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, 'package.json'),
    JSON.stringify({
      name: '@hermes/plugin-platform-discord',
      version: '0.0.0',
      type: 'module',
      main: 'index.js',
      hermes: { kind: 'platform', provides: { platforms: ['discord'] } },
    }),
  );
  const entry = pathToFileURL(PLUGIN_DIST).href;
  writeFileSync(join(folder, 'index.js'), `export { default } from '${entry}';\n`);
}

/** Starts `hermes-gateway run` on `home` and resolves once it is ready. */
export async function startGateway(home: string): Promise<Child> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HERMES_HOME: home,
    OPENAI_API_KEY: 'sk-test-provider-key',
  };
  delete env.DISCORD_BOT_TOKEN;
  const child = new Child([GATEWAY_BIN, 'run'], env);
  await child.waitFor(/gateway ready/);
  return child;
}
