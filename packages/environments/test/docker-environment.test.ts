/**
 * The docker backend at its command boundary: the CLI arguments it builds, and the whole
 * contract run through a fake `docker` that executes `docker exec` locally and logs every call.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DockerEnvironment,
  dockerExecArgs,
  dockerKillArgs,
  dockerRunArgs,
  isEnvironmentConnectionError,
} from '../src/index.js';
import { describeExecutionEnvironmentContract } from '../src/testing.js';
import { dockerUnavailable } from './support/tools.js';

/** A fake docker CLI: `run` and `rm` succeed, `exec` runs the command here. */
function fakeDocker(dir: string, runExit = 0): string {
  const path = join(dir, 'docker');
  const script = [
    '#!/bin/sh',
    `printf '%s' "$*" | tr '\\n' ' ' | head -c 300 >> '${join(dir, 'calls.log')}'; echo >> '${join(dir, 'calls.log')}'`,
    'case "$1" in',
    `  run) [ ${runExit} = 0 ] || { echo "Cannot connect to the Docker daemon" >&2; exit ${runExit}; }; echo 0123abcd;;`,
    '  rm) echo removed;;',
    '  exec) shift; [ "$1" = "-i" ] && shift; shift; exec "$@";;',
    '  *) exit 64;;',
    'esac',
  ].join('\n');
  writeFileSync(path, `${script}\n`, { mode: 0o755 });
  return path;
}

describeExecutionEnvironmentContract('docker (fake CLI running exec locally)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hermes-docker-'));
  return {
    environment: new DockerEnvironment({ dockerPath: fakeDocker(dir), workdir: dir }),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
});

describe('DockerEnvironment command boundary', () => {
  it('builds a locked-down, network-less run and an exec with stdin', () => {
    const run = dockerRunArgs({
      image: 'alpine:3',
      name: 'hermes-x',
      workdir: '/workspace',
      hostWorkspace: '/home/me/project',
      network: false,
      volumes: ['/cache:/cache:ro'],
      memory: '2g',
    });
    expect(run.slice(0, 4)).toEqual(['run', '-d', '--rm', '--init']);
    const line = run.join(' ');
    expect(line).toContain('--name hermes-x');
    expect(line).toContain('--cap-drop ALL');
    expect(line).toContain('--network none');
    expect(line).toContain('--memory 2g');
    expect(line).toContain(
      '-v /home/me/project:/workspace -v /cache:/cache:ro -w /workspace alpine:3',
    );
    expect(
      dockerRunArgs({ image: 'i', name: 'n', workdir: '/w', network: true, volumes: [] }),
    ).not.toContain('--network');
    expect(dockerExecArgs('hermes-x', 'echo hi')).toEqual([
      'exec',
      '-i',
      'hermes-x',
      '/bin/sh',
      '-c',
      'echo hi',
    ]);
    expect(dockerKillArgs('hermes-x', 42, 0.05).join(' ')).toMatch(
      /^exec hermes-x \/bin\/sh -c kill -TERM -42 .*kill -KILL -42/,
    );
  });

  it('starts one container per session, execs into it, and removes it on cleanup', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hermes-docker-'));
    try {
      const environment = new DockerEnvironment({
        dockerPath: fakeDocker(dir),
        workdir: dir,
        image: 'alpine:3',
      });
      expect((await environment.execute('echo one')).output).toBe('one\n');
      expect((await environment.execute('echo two')).output).toBe('two\n');
      await environment.cleanup();
      const calls = readFileSync(join(dir, 'calls.log'), 'utf8').split('\n').filter(Boolean);
      expect(calls.map((c) => c.split(' ')[0])).toEqual(['run', 'exec', 'exec', 'rm']);
      expect(calls[0]).toContain(`--name ${environment.container}`);
      expect(calls[3]).toBe(`rm -f ${environment.container}`);
      expect(environment.describe()).toMatchObject({
        backend: 'docker',
        image: 'alpine:3',
        network: false,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports an engine that does not answer as a connection error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hermes-docker-'));
    try {
      const environment = new DockerEnvironment({ dockerPath: fakeDocker(dir, 1), workdir: dir });
      const error = await environment.execute('true').catch((e: unknown) => e);
      expect(isEnvironmentConnectionError(error)).toBe(true);
      expect(String(error)).toMatch(/Cannot connect to the Docker daemon/);
      await environment.cleanup();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const noEngine = dockerUnavailable();
describe.skipIf(noEngine !== undefined)(
  `DockerEnvironment against a real engine${noEngine ? ` (skipped: ${noEngine})` : ''}`,
  () => {
    it('runs a command in a real container', async () => {
      const environment = new DockerEnvironment({ image: 'busybox:latest', workdir: '/tmp' });
      try {
        const result = await environment.execute('echo from-container; cat /etc/hostname');
        expect(result.output).toMatch(/^from-container\n/);
      } finally {
        await environment.cleanup();
      }
    });
  },
);
