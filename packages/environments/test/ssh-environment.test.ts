import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BackgroundProcesses,
  fileOperationsFor,
  isEnvironmentConnectionError,
  ShellFileOperations,
  SshEnvironment,
  type SshEnvironmentOptions,
  sshBaseArgs,
} from '../src/index.js';
import {
  describeExecutionEnvironmentContract,
  describeFileOperationsContract,
} from '../src/testing.js';
import { waitUntil } from './support/processes.js';
import { sshdUnavailable, startSshd, type TestSshd } from './support/sshd.js';

const unavailable = sshdUnavailable();
let sshd: TestSshd | undefined;

function options(extra: Partial<SshEnvironmentOptions> = {}): SshEnvironmentOptions {
  if (!sshd) throw new Error('sshd is not running');
  return {
    host: '127.0.0.1',
    port: sshd.port,
    user: sshd.user,
    identityFile: sshd.identityFile,
    knownHostsFile: sshd.knownHostsFile,
    strictHostKeyChecking: 'yes',
    configFile: '/dev/null',
    ...extra,
  };
}

function remoteDir(): string {
  return mkdtempSync(join(tmpdir(), 'hermes-ssh-'));
}

// Without sshd every test below is still registered, and reported as skipped with the reason.
describe.skipIf(unavailable !== undefined)(
  `ssh backend against a real sshd on 127.0.0.1${unavailable ? ` (skipped: ${unavailable})` : ''}`,
  () => {
    beforeAll(async () => {
      sshd = await startSshd();
    });
    afterAll(async () => {
      await sshd?.stop();
    });

    describeExecutionEnvironmentContract(
      'ssh (real sshd on 127.0.0.1)',
      () => {
        const dir = remoteDir();
        return {
          environment: new SshEnvironment(options({ cwd: dir })),
          cleanup: () => rmSync(dir, { recursive: true, force: true }),
        };
      },
      { abortDeadlineMs: 5_000, timeoutSlackMs: 5_000, commandDeadlineMs: 20_000 },
    );

    describeFileOperationsContract('shell over ssh execute()', () => {
      const dir = remoteDir();
      const environment = new SshEnvironment(options({ cwd: dir }));
      return {
        files: fileOperationsFor(environment),
        dir,
        cleanup: async () => {
          await environment.cleanup();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    });

    describe('SshEnvironment', () => {
      it('starts in the remote home, reuses one connection, and says where it is', async () => {
        const environment = new SshEnvironment(options());
        try {
          expect(fileOperationsFor(environment)).toBeInstanceOf(ShellFileOperations);
          // sshd starts sessions in the account's home directory (the test sshd points $HOME at a
          // bare directory so the machine's rc files stay out of the timing).
          const first = await environment.execute('pwd');
          expect(first.output.trim()).toBe(userInfo().homedir);
          // With a live control master, `ssh -O check` succeeds.
          const check = await environment.execute('true');
          expect(check.exitCode).toBe(0);
          expect(environment.describe()).toMatchObject({ backend: 'ssh', host: '127.0.0.1' });
        } finally {
          await environment.cleanup();
        }
      });

      it('runs background processes on the remote host and kills them there', async () => {
        const dir = remoteDir();
        const environment = new SshEnvironment(options({ cwd: dir }));
        const processes = new BackgroundProcesses(environment);
        try {
          const { id } = await processes.start(
            'echo started; while :; do echo x >> beat; sleep 0.05; done',
          );
          expect(await waitUntil(() => processes.log(id).includes('started'))).toBe(true);
          expect(processes.poll(id).pid).toBeGreaterThan(0);
          await processes.kill(id);
          const size = readFileSync(join(dir, 'beat')).length;
          await new Promise((resolve) => setTimeout(resolve, 400));
          expect(readFileSync(join(dir, 'beat')).length).toBe(size);
        } finally {
          await environment.cleanup();
          rmSync(dir, { recursive: true, force: true });
        }
      });

      it('rejects with EnvironmentConnectionError when the host refuses the key', async () => {
        const environment = new SshEnvironment(
          options({ identityFile: '/nonexistent-key', port: 1 }),
        );
        try {
          const error = await environment.execute('true').catch((e: unknown) => e);
          expect(isEnvironmentConnectionError(error)).toBe(true);
          expect(String(error)).toMatch(
            /cannot connect to root@127\.0\.0\.1:1|cannot connect to .*127\.0\.0\.1:1/,
          );
        } finally {
          await environment.cleanup();
        }
      });
    });
  },
);

describe('sshBaseArgs', () => {
  it('builds connection-sharing, non-interactive options', () => {
    const args = sshBaseArgs({ host: 'h', port: 2222, user: 'u', identityFile: '/k' }, '/c.sock');
    expect(args.join(' ')).toContain('-o BatchMode=yes');
    expect(args.join(' ')).toContain('-o ControlPath=/c.sock');
    expect(args.join(' ')).toContain('-o StrictHostKeyChecking=accept-new');
    expect(args.join(' ')).toContain('-i /k -o IdentitiesOnly=yes -p 2222 -l u');
  });
});
