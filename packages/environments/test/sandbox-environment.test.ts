import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BackgroundProcesses,
  bwrapArgs,
  fileOperationsFor,
  isEnvironmentConnectionError,
  SandboxEnvironment,
  ShellFileOperations,
} from '../src/index.js';
import {
  describeExecutionEnvironmentContract,
  describeFileOperationsContract,
} from '../src/testing.js';
import { BACKSTOP_MS } from './support/processes.js';
import { bwrapUnavailable } from './support/tools.js';

const unavailable = bwrapUnavailable();
// Without bubblewrap every sandbox test is still registered, and reported as skipped with why.
const sandboxSuite = describe.skipIf(unavailable !== undefined);
const why = unavailable ? ` (skipped: ${unavailable})` : '';

/** Connects from inside the sandbox to a TCP server on the host's 127.0.0.1. */
async function connectFromInside(environment: SandboxEnvironment): Promise<string> {
  const server = createServer((socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const script = `require('net').connect(${port}, '127.0.0.1').on('connect', () => { console.log('connected'); process.exit(0); }).on('error', (e) => { console.log('error ' + e.code); process.exit(3); })`;
  try {
    const result = await environment.execute(`${process.execPath} -e ${JSON.stringify(script)}`);
    return result.output.trim();
  } finally {
    server.close();
  }
}

function workspace(): string {
  return mkdtempSync(join(tmpdir(), 'hermes-sandbox-'));
}

sandboxSuite(`the sandbox backend against the contracts${why}`, () => {
  describeExecutionEnvironmentContract('sandbox (bubblewrap)', () => {
    const dir = workspace();
    return {
      environment: new SandboxEnvironment({ cwd: dir }),
      cleanup: () => rmSync(dir, { recursive: true, force: true }),
    };
  });
  describeFileOperationsContract('shell over sandbox execute()', () => {
    const dir = workspace();
    const environment = new SandboxEnvironment({ cwd: dir });
    return {
      files: fileOperationsFor(environment),
      dir,
      cleanup: async () => {
        await environment.cleanup();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });
});

sandboxSuite(`SandboxEnvironment isolation${why}`, () => {
  let dir: string;
  let environment: SandboxEnvironment;
  afterEach(async () => {
    await environment.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the workspace, cannot write the rest, has a private /tmp and no network', async () => {
    dir = workspace();
    environment = new SandboxEnvironment({ cwd: dir });
    expect(fileOperationsFor(environment)).toBeInstanceOf(ShellFileOperations);
    const ok = await environment.execute('echo inside > made-here.txt');
    expect(ok.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'made-here.txt'), 'utf8')).toBe('inside\n');
    const outside = await environment.execute('touch /etc/hermes-escape');
    expect(outside.exitCode).not.toBe(0);
    expect(outside.output).toMatch(/Read-only file system/);
    const marker = `hermes-private-${Date.now()}`;
    await environment.execute(`echo secret > /tmp/${marker}`);
    expect(() => readFileSync(join('/tmp', marker))).toThrow();
    expect((await environment.execute(`cat /tmp/${marker}`)).output).toBe('secret\n');
    expect(await connectFromInside(environment)).toMatch(/^error/);
  });

  it('reaches the network only when enabled', async () => {
    dir = workspace();
    environment = new SandboxEnvironment({ cwd: dir, network: true });
    expect(await connectFromInside(environment)).toBe('connected');
  });

  it('runs background processes inside the sandbox', async () => {
    dir = workspace();
    environment = new SandboxEnvironment({ cwd: dir });
    const processes = new BackgroundProcesses(environment);
    const { id } = await processes.start('touch /hermes-nope 2>&1; echo bg > bg.txt');
    await processes.wait(id, { timeoutMs: BACKSTOP_MS });
    expect(processes.log(id)).toMatch(/Read-only file system/);
    expect(readFileSync(join(dir, 'bg.txt'), 'utf8')).toBe('bg\n');
  });
});

describe('SandboxEnvironment without a working bubblewrap (needs no bwrap)', () => {
  let dir: string;
  let environment: SandboxEnvironment;
  afterEach(async () => {
    await environment.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports a broken bubblewrap as a connection error, not a command failure', async () => {
    dir = workspace();
    const fake = join(dir, 'fake-bwrap');
    writeFileSync(
      fake,
      '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n',
      {
        mode: 0o755,
      },
    );
    environment = new SandboxEnvironment({ cwd: dir, bwrapPath: fake });
    const error = await environment.execute('true').catch((e: unknown) => e);
    expect(isEnvironmentConnectionError(error)).toBe(true);
    expect(String(error)).toMatch(/No permissions to create new namespace/);
    const missing = new SandboxEnvironment({ cwd: dir, bwrapPath: join(dir, 'no-such-bwrap') });
    expect(isEnvironmentConnectionError(await missing.execute('true').catch((e) => e))).toBe(true);
  });
});

describe('bwrapArgs', () => {
  it('mounts / read-only, the workspace read-write, /tmp private, network off by default', () => {
    const args = bwrapArgs({
      workspace: '/w',
      tmpDir: '/s/tmp',
      network: false,
      writablePaths: [],
    });
    expect(args.slice(0, 3)).toEqual(['--ro-bind', '/', '/']);
    expect(args.join(' ')).toContain('--bind /s/tmp /tmp --bind /w /w');
    expect(args).toContain('--unshare-net');
    expect(args).toContain('--die-with-parent');
    expect(
      bwrapArgs({ workspace: '/w', tmpDir: '/t', network: true, writablePaths: [] }),
    ).not.toContain('--unshare-net');
  });
});
