/**
 * Helpers for a plugin's end-to-end tests against real processes (the built `hermes-gateway`,
 * `hermes-testkit serve`): a Node child whose output is collected and waited on, and a plugin
 * installed into a test's `HERMES_HOME/plugins/` from its built entry.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** A Node script run as a child process, its stdout and stderr collected in {@link out}. */
export class NodeProcess {
  /** Everything the process printed so far, stdout and stderr interleaved. */
  out = '';
  /** Resolves with the exit code (`null` when a signal ended it). */
  readonly exited: Promise<number | null>;
  readonly #proc: ChildProcess;
  readonly #waiters: { pattern: RegExp; resolve: (match: RegExpMatchArray) => void }[] = [];

  /**
   * @param args - The script and its arguments (`[bin, 'run']`), run with this Node.
   * @param env - The child's whole environment.
   */
  constructor(args: readonly string[], env: NodeJS.ProcessEnv, options: { cwd?: string } = {}) {
    this.#proc = spawn(process.execPath, args, {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.cwd ? { cwd: options.cwd } : {}),
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

  /** Resolves at the first output matching `pattern`; rejects (with the output) if it exits first. */
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

  /** Sends SIGTERM (if still running) and resolves with the exit code. */
  stop(): Promise<number | null> {
    if (this.#proc.exitCode === null && this.#proc.signalCode === null) this.#proc.kill('SIGTERM');
    return this.exited;
  }
}

/** What {@link installPluginEntry} writes. */
export interface PluginEntryInstall {
  /** The folder under `HERMES_HOME/plugins/` (also the plugin's short name). */
  readonly folder: string;
  /** The package name in the folder's package.json. */
  readonly packageName: string;
  /** The built entry file the folder's `index.js` re-exports. */
  readonly entry: string;
  /** The package.json `"hermes"` field (kind, provides, …). */
  readonly hermes: Readonly<Record<string, unknown>>;
}

/**
 * Installs a plugin into `HERMES_HOME/plugins/<folder>` as a package whose `index.js` re-exports
 * the built entry, so a real gateway process loads the code under test.
 */
export function installPluginEntry(hermesHome: string, install: PluginEntryInstall): void {
  const folder = join(hermesHome, 'plugins', install.folder);
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, 'package.json'),
    JSON.stringify({
      name: install.packageName,
      version: '0.0.0',
      type: 'module',
      main: 'index.js',
      hermes: install.hermes,
    }),
  );
  const entry = pathToFileURL(install.entry).href;
  writeFileSync(join(folder, 'index.js'), `export { default } from '${entry}';\n`);
}

/**
 * Starts `hermes-testkit serve` (at `testkitBin`) on a script of `turns` written into `dir`;
 * resolves the OpenAI-compatible base URL (`…/v1`) and the process.
 */
export async function startScriptedModelProcess(
  testkitBin: string,
  dir: string,
  turns: readonly object[],
): Promise<{ readonly child: NodeProcess; readonly baseUrl: string }> {
  const file = join(dir, 'script.json');
  writeFileSync(file, JSON.stringify({ turns }));
  const child = new NodeProcess([testkitBin, 'serve', '--script', file], process.env);
  const [, url] = await child.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
  return { child, baseUrl: `${url}/v1` };
}
