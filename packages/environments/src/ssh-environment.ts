/**
 * The `ssh` backend: commands run on another host through the OpenSSH client, over one shared
 * connection (ControlMaster) so each command costs a channel, not a handshake.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EnvironmentConnectionError } from './errors.js';
import {
  type LaunchedShell,
  ProcessEnvironment,
  type ProcessEnvironmentOptions,
} from './process-environment.js';
import { killGroup } from './process-group.js';
import type { ProcessOutcome } from './run-process.js';
import { shellQuote } from './shell-script.js';

/** Options of an {@link SshEnvironment}. */
export interface SshEnvironmentOptions extends ProcessEnvironmentOptions {
  readonly host: string;
  readonly user?: string;
  readonly port?: number;
  /** Private key file. Default: whatever the ssh client would use. */
  readonly identityFile?: string;
  /** known_hosts file to check the host key against. Default: the user's. */
  readonly knownHostsFile?: string;
  /** `yes` (default `accept-new`: trust on first use, refuse a changed key) or `no`. */
  readonly strictHostKeyChecking?: 'yes' | 'accept-new' | 'no';
  /** ssh client config file (`-F`). Default: the user's. */
  readonly configFile?: string;
  /** Seconds to wait for the connection. Default 10. */
  readonly connectTimeoutSeconds?: number;
  /** The ssh binary. Default `ssh` on PATH. */
  readonly sshPath?: string;
  /** Remote working directory. Default: the remote user's home. */
  readonly cwd?: string;
}

/** The connection options every ssh invocation of one environment shares. */
export function sshBaseArgs(options: SshEnvironmentOptions, controlPath: string): string[] {
  const args: string[] = [];
  if (options.configFile) args.push('-F', options.configFile);
  args.push('-o', 'BatchMode=yes', '-o', `ConnectTimeout=${options.connectTimeoutSeconds ?? 10}`);
  args.push(
    '-o',
    `ControlPath=${controlPath}`,
    '-o',
    'ServerAliveInterval=15',
    '-o',
    'LogLevel=ERROR',
  );
  args.push('-o', `StrictHostKeyChecking=${options.strictHostKeyChecking ?? 'accept-new'}`);
  if (options.knownHostsFile) args.push('-o', `UserKnownHostsFile=${options.knownHostsFile}`);
  if (options.identityFile) args.push('-i', options.identityFile, '-o', 'IdentitiesOnly=yes');
  if (options.port !== undefined) args.push('-p', String(options.port));
  if (options.user) args.push('-l', options.user);
  return args;
}

/**
 * Runs each command as `exec /bin/sh -c <script>` on the remote host. sshd makes that shell a
 * session leader, and the script reports its pid, so a timeout or abort kills the remote process
 * group (over the shared connection) as well as the local client. Connection failures reject with
 * {@link EnvironmentConnectionError}.
 */
export class SshEnvironment extends ProcessEnvironment {
  readonly name = 'ssh';
  readonly #options: SshEnvironmentOptions;
  readonly #controlPath: string;
  readonly #base: string[];
  readonly #ssh: string;
  #connected: Promise<void> | undefined;

  constructor(options: SshEnvironmentOptions) {
    if (!options.host) throw new TypeError('SshEnvironment needs a host');
    super(options, options.cwd ?? '/');
    this.#options = options;
    this.#ssh = options.sshPath ?? 'ssh';
    this.#controlPath = controlPathFor(this.storageDir, options);
    this.#base = sshBaseArgs(options, this.#controlPath);
  }

  /** Opens the shared connection (once); later commands reuse it. */
  connect(): Promise<void> {
    this.#connected ??= this.#openMaster().catch((error: unknown) => {
      this.#connected = undefined;
      throw error;
    });
    return this.#connected;
  }

  async #openMaster(): Promise<void> {
    mkdirSync(join(this.#controlPath, '..'), { recursive: true, mode: 0o700 });
    const master = await this.#run([
      '-o',
      'ControlMaster=yes',
      '-o',
      'ControlPersist=yes',
      '-f',
      '-N',
    ]);
    if (master.code !== 0) {
      throw new EnvironmentConnectionError(
        `cannot connect to ${this.#where()}: ${master.stderr.trim() || `ssh exited with ${master.code}`}`,
        { retryHint: 'check the host, port, user, key and host key; the host may be down' },
      );
    }
    if (this.#options.cwd === undefined) {
      const home = await this.#run(['-o', 'ControlMaster=no', '-T', '--', 'pwd']);
      if (home.code === 0 && home.stdout.trim().startsWith('/')) this.setCwd(home.stdout.trim());
    }
  }

  /** Runs ssh with `args` and the destination, collecting output until it exits. */
  #run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const [options, command] = splitCommand(args);
    const child = spawn(this.#ssh, [...this.#base, ...options, this.#options.host, ...command], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    return new Promise((resolve) => {
      child.once('error', (error) => resolve({ code: null, stdout, stderr: error.message }));
      // `exit`, not `close`: a backgrounded master keeps our pipes open.
      child.once('exit', (code) => {
        setTimeout(() => {
          child.stdout.destroy();
          child.stderr.destroy();
          resolve({ code, stdout, stderr });
        }, 20);
      });
    });
  }

  protected override ready(): Promise<void> {
    return this.connect();
  }

  protected async launch(script: string): Promise<LaunchedShell> {
    const remote = `exec /bin/sh -c ${shellQuote(script)}`;
    const child: ChildProcess = spawn(
      this.#ssh,
      [...this.#base, '-o', 'ControlMaster=no', '-T', this.#options.host, '--', remote],
      { detached: true, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    const grace = this.killGraceMs;
    return {
      child,
      kill: async (pid) => {
        const remoteKill = pid === undefined ? Promise.resolve() : this.#killRemote(pid);
        await Promise.all([
          remoteKill,
          child.pid === undefined ? undefined : killGroup(child.pid, grace),
        ]);
      },
    };
  }

  async #killRemote(pid: number): Promise<void> {
    const grace = (this.killGraceMs / 1000).toFixed(3);
    const command = `kill -TERM -- -${pid} 2>/dev/null; sleep ${grace}; kill -KILL -- -${pid} 2>/dev/null; true`;
    await this.#run(['-o', 'ControlMaster=no', '-T', '--', command]);
  }

  /** ssh exits 255 without running the script when the connection fails. */
  protected override startFailure(outcome: ProcessOutcome, output: string): Error | undefined {
    if (outcome.exitCode === 0) return undefined;
    return new EnvironmentConnectionError(
      `lost the ssh connection to ${this.#where()}: ${output.trim() || `ssh exited with ${outcome.exitCode}`}`,
      { retryHint: 'the host may be rebooting or the network down; try again shortly' },
    );
  }

  protected override async release(): Promise<void> {
    if (this.#connected === undefined) return;
    await this.#connected.catch(() => undefined);
    await this.#run(['-O', 'exit']);
  }

  override describe() {
    return {
      ...super.describe(),
      host: this.#options.host,
      ...(this.#options.user ? { user: this.#options.user } : {}),
    };
  }

  #where(): string {
    const user = this.#options.user ? `${this.#options.user}@` : '';
    const port = this.#options.port === undefined ? '' : `:${this.#options.port}`;
    return `${user}${this.#options.host}${port}`;
  }
}

/** Splits `[...options, '--', ...command]`; ssh takes the destination between them. */
function splitCommand(args: string[]): [string[], string[]] {
  const at = args.indexOf('--');
  return at < 0 ? [args, []] : [args.slice(0, at), args.slice(at)];
}

/** A control socket path under the storage root, short enough for a unix socket. */
function controlPathFor(storageDir: string, options: SshEnvironmentOptions): string {
  const key = `${options.user ?? ''}@${options.host}:${options.port ?? 22}:${process.pid}:${Math.random()}`;
  const name = `${createHash('sha256').update(key).digest('hex').slice(0, 16)}.sock`;
  const preferred = join(storageDir, 'ssh', name);
  // Unix socket paths are limited to about 104 bytes.
  return preferred.length <= 100 ? preferred : join(tmpdir(), `hermes-ssh-${name}`);
}
