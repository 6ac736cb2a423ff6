/**
 * End-to-end: runs the built executable, dist/bin.js, as a real subprocess. Needs a build first;
 * `turbo run test` builds it (see this package's turbo.json).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN as bin, hermes, requireBuild } from './spawn-hermes.ts';

const { version } = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
) as { version: string };

describe('dist/bin.js', () => {
  it('starts with a node shebang', () => {
    requireBuild();
    expect(readFileSync(bin, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
  });

  it('--version prints the package version and exits 0', async () => {
    const result = await hermes(['--version']);
    expect(result).toEqual({ code: 0, stdout: `hermes ${version}\n`, stderr: '' });
  });

  it('--help prints the usage with this test’s HERMES_HOME and exits 0', async () => {
    const result = await hermes(['--help']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('Usage:\n  hermes [global options] [command]');
    expect(result.stdout).toContain(`Data home: ${process.env.HERMES_HOME} (from HERMES_HOME)`);
  });

  it('does not create a missing HERMES_HOME', async () => {
    const home = join(process.env.HERMES_HOME as string, 'missing');
    const result = await hermes(['--help'], { HERMES_HOME: home });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Data home: ${home} (from HERMES_HOME; not created yet)`);
    expect(existsSync(home)).toBe(false);
  });

  it('a bad flag names it on stderr and exits 2', async () => {
    const result = await hermes(['--no-such-flag']);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: "hermes: unknown option '--no-such-flag'\nRun 'hermes --help' for usage.\n",
    });
  });
});
