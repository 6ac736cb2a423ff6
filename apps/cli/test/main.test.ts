import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main, VERSION } from '../src/index.ts';
import { capture } from './capture.ts';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

describe('VERSION', () => {
  it('is the version in the package.json', () => {
    expect(VERSION).toBe(manifest.version);
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('main --version', () => {
  it.each([['--version'], ['-V']])('%s prints "hermes <version>" and exits 0', async (flag) => {
    const c = capture();
    expect(await main([flag], c.io)).toBe(0);
    expect(c.stdout()).toBe(`hermes ${VERSION}\n`);
    expect(c.stderr()).toBe('');
  });
});

describe('main --help', () => {
  it.each([['--help'], ['-h']])('%s prints the usage and exits 0', async (flag) => {
    const c = capture();
    expect(await main([flag], c.io)).toBe(0);
    const out = c.stdout();
    expect(out).toMatch(/^hermes \d+\.\d+\.\d+ - /);
    expect(out).toContain('Usage:\n  hermes [global options] [command]');
    for (const command of [
      'chat',
      'demo',
      'sessions',
      'memory',
      'skills',
      'config',
      'setup',
      'doctor',
      'approval',
    ]) {
      expect(out).toMatch(new RegExp(`^  ${command.replace(/[<>[\]]/g, '.')}\\b`, 'm'));
    }
    expect(out).toMatch(/^ {2}chat\s+.*\(default\)$/m);
    // Commands plugins add are not loaded for the help; it says where to find them.
    expect(out).toMatch(
      /^ {2}<plugin command>\s+a command an enabled plugin adds \(`hermes plugins list`$/m,
    );
    expect(out).toContain('-p, --profile <name>');
    expect(out).toContain('-h, --help');
    expect(out).toContain('-V, --version');
    expect(out).toContain('HERMES_HOME');
    expect(c.stderr()).toBe('');
  });

  it('shows the HERMES_HOME from the environment in its footer', async () => {
    const home = process.env.HERMES_HOME as string;
    const c = capture();
    expect(await main(['--help'], c.io)).toBe(0);
    expect(c.stdout().trimEnd().split('\n').at(-1)).toBe(`Data home: ${home} (from HERMES_HOME)`);
  });

  it('says when the data home does not exist, and does not create it', async () => {
    const home = join(process.env.HERMES_HOME as string, 'not-there');
    const c = capture({ HERMES_HOME: home });
    expect(await main(['--help'], c.io)).toBe(0);
    expect(c.stdout()).toContain(`Data home: ${home} (from HERMES_HOME; not created yet)`);
    expect(existsSync(home)).toBe(false);
  });

  it('falls back to ~/.hermes when HERMES_HOME is unset', async () => {
    const c = capture({});
    expect(await main(['-h'], c.io)).toBe(0);
    expect(c.stdout()).toMatch(/^Data home: .*[/\\]\.hermes \(default[;)]/m);
  });

  it('wins over --version and accepts a profile before it', async () => {
    const c = capture();
    expect(await main(['-p', 'work', '-V', '-h'], c.io)).toBe(0);
    expect(c.stdout()).toContain('Usage:');
    expect(c.stdout()).not.toContain(`hermes ${VERSION}\n`);
  });
});

describe('main with a bad command line', () => {
  it.each([
    [['--bogus'], "unknown option '--bogus'"],
    [['-x'], "unknown option '-x'"],
    [['--bogus=1', 'chat'], "unknown option '--bogus'"],
    [['frobnicate'], "unknown command 'frobnicate'"],
    [['sesions'], "unknown command 'sesions'; did you mean 'sessions'?"],
    [['-p'], "option '-p' needs a value"],
    [['--profile', '--help'], "option '--profile' needs a value, but got the option '--help'"],
    [['--profile='], "option '--profile' needs a non-empty value"],
    [['--version=2'], "option '--version' does not take a value"],
  ])('%j names the bad argument on stderr, points to --help, exits 2', async (argv, message) => {
    const c = capture();
    expect(await main(argv, c.io)).toBe(2);
    const lines = c.stderr().split('\n');
    expect(lines[0]).toContain(`hermes: ${message}`);
    expect(lines[1]).toBe("Run 'hermes --help' for usage.");
    expect(c.stdout()).toBe('');
  });

  it('does not suggest a command for an unrelated word', async () => {
    const c = capture();
    expect(await main(['xyzzy'], c.io)).toBe(2);
    expect(c.stderr()).not.toContain('did you mean');
  });
});
