/**
 * A throwaway OpenSSH server on 127.0.0.1 for tests: fresh host and client keys, key login as
 * the current user, no PAM, no passwords. One per test file; stop it in afterAll.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { BACKSTOP_MS } from './processes.js';
import { onPath } from './tools.js';

export const SSHD = '/usr/sbin/sshd';

/** A running test sshd and what a client needs to log in to it. */
export interface TestSshd {
  readonly port: number;
  readonly user: string;
  readonly identityFile: string;
  readonly knownHostsFile: string;
  stop(): Promise<void>;
}

/** Why an sshd cannot run here, or `undefined` when it can. */
export function sshdUnavailable(): string | undefined {
  if (!existsSync(SSHD)) return `sshd is not installed (no ${SSHD})`;
  if (!onPath('ssh-keygen')) return 'ssh-keygen is not on PATH';
  if (!onPath('ssh')) return 'ssh (the OpenSSH client) is not on PATH';
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    return 'sshd needs root to switch to the logged-in user';
  }
  return undefined;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Starts sshd and resolves once it accepts connections. */
export async function startSshd(): Promise<TestSshd> {
  const dir = mkdtempSync(join(tmpdir(), 'hermes-sshd-'));
  const keygen = (file: string) =>
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', file], { stdio: 'ignore' });
  keygen(join(dir, 'host_key'));
  keygen(join(dir, 'client_key'));
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'client_key.pub')));
  mkdirSync('/run/sshd', { recursive: true });
  const port = await freePort();
  const config = [
    `Port ${port}`,
    'ListenAddress 127.0.0.1',
    `HostKey ${join(dir, 'host_key')}`,
    `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
    `PidFile ${join(dir, 'sshd.pid')}`,
    'UsePAM no',
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'StrictModes no',
    'PermitRootLogin prohibit-password',
    'MaxSessions 100',
    'MaxStartups 100',
    'LogLevel ERROR',
    // A bare home for the test sessions: the machine user's shell rc files (pyenv, cargo) cost
    // ~0.3 s per command, which is the environment under test's cost, not the backend's.
    `SetEnv HOME=${join(dir, 'home')}`,
  ];
  mkdirSync(join(dir, 'home'), { recursive: true });
  writeFileSync(join(dir, 'sshd_config'), `${config.join('\n')}\n`);
  const hostKey = readFileSync(join(dir, 'host_key.pub'), 'utf8').trim().split(' ').slice(0, 2);
  writeFileSync(join(dir, 'known_hosts'), `[127.0.0.1]:${port} ${hostKey.join(' ')}\n`);
  const child: ChildProcess = spawn(SSHD, ['-D', '-e', '-f', join(dir, 'sshd_config')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  const deadline = Date.now() + BACKSTOP_MS;
  while (!(await canConnect(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`sshd did not start on port ${port}: ${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return {
    port,
    user: userInfo().username,
    identityFile: join(dir, 'client_key'),
    knownHostsFile: join(dir, 'known_hosts'),
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
