import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main, VERSION } from '../src/index.ts';
import { capture } from './capture.ts';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

const notYet = `The gateway runtime arrives in a later release; hermes-gateway ${VERSION} cannot run it yet.`;

describe('VERSION', () => {
  it('is the version in the package.json', () => {
    expect(VERSION).toBe(manifest.version);
  });
});

describe('main --version', () => {
  it.each([['--version'], ['-V']])(
    '%s prints "hermes-gateway <version>", exits 0',
    async (flag) => {
      const c = capture();
      expect(await main([flag], c.io)).toBe(0);
      expect(c.stdout()).toBe(`hermes-gateway ${VERSION}\n`);
      expect(c.stderr()).toBe('');
    },
  );
});

describe('main --help', () => {
  it.each([['--help'], ['-h'], ['run', '--help']])(
    '%s prints the usage, exits 0',
    async (...argv) => {
      const c = capture();
      expect(await main(argv, c.io)).toBe(0);
      const out = c.stdout();
      expect(out).toMatch(/^hermes-gateway \d+\.\d+\.\d+ - /);
      expect(out).toContain('Usage:\n  hermes-gateway [run|start] [options]');
      expect(out).toMatch(/^ {2}run\s+.*\(default\)$/m);
      expect(out).toMatch(/^ {2}start\s+/m);
      expect(out).toContain('--config <path>');
      expect(out).toContain('-p, --profile <name>');
      expect(out).toContain('Coming in later releases:');
      expect(out).toContain('OpenAI-compatible API server');
      expect(out).toMatch(/platform adapters/);
      expect(out).toContain('HERMES_HOME');
      expect(c.stderr()).toBe('');
    },
  );

  it('shows the data home from HERMES_HOME and the default config file', async () => {
    const home = process.env.HERMES_HOME as string;
    const c = capture();
    expect(await main(['--help'], c.io)).toBe(0);
    expect(c.stdout()).toContain(`Data home: ${home} (from HERMES_HOME)\n`);
    expect(c.stdout()).toContain(`Config:    ${join(home, 'config.yaml')} (default)\n`);
  });

  it('shows a --config path given before or after the command', async () => {
    for (const argv of [
      ['--config', 'gw.yaml', '-h'],
      ['run', '--config=gw.yaml', '-h'],
    ]) {
      const c = capture();
      expect(await main(argv, c.io)).toBe(0);
      expect(c.stdout()).toContain(`Config:    ${resolve('gw.yaml')} (from --config)\n`);
    }
  });

  it('does not create a missing data home', async () => {
    const home = join(process.env.HERMES_HOME as string, 'absent');
    const c = capture({ HERMES_HOME: home });
    expect(await main(['-h'], c.io)).toBe(0);
    expect(c.stdout()).toContain(`Data home: ${home} (from HERMES_HOME; not created yet)`);
    expect(existsSync(home)).toBe(false);
  });
});

describe('main with no command', () => {
  it('says the runtime arrives later, prints the help and returns at once with 0', async () => {
    const c = capture();
    expect(await main([], c.io)).toBe(0);
    expect(c.stdout().split('\n')[0]).toBe(notYet);
    expect(c.stdout()).toContain('Usage:');
    expect(c.stderr()).toBe('');
  });

  it('does the same with options only', async () => {
    const c = capture();
    expect(await main(['--profile', 'work', '--config', 'x.yaml'], c.io)).toBe(0);
    expect(c.stdout().split('\n')[0]).toBe(notYet);
  });
});

describe('main run / start', () => {
  it.each([['run'], ['start']])('%s says the runtime is not here and exits 1', async (command) => {
    const c = capture();
    expect(await main([command, '-p', 'work'], c.io)).toBe(1);
    expect(c.stderr()).toBe(
      `hermes-gateway: cannot ${command}: the gateway runtime arrives in a later release ` +
        `and is not in hermes-gateway ${VERSION}.\nRun 'hermes-gateway --help' to see what is coming.\n`,
    );
    expect(c.stdout()).toBe('');
  });
});

describe('main with a bad command line', () => {
  it.each([
    [['--bogus'], "unknown option '--bogus'"],
    [['run', '--bogus'], "unknown option '--bogus'"],
    [['-x'], "unknown option '-x'"],
    [['serve'], "unknown command 'serve' (the commands are: run, start)"],
    [['run', 'extra'], "unexpected argument 'extra' after 'run'"],
    [['--config'], "option '--config' needs a value"],
    [['--config', '--help'], "option '--config' needs a value, but got the option '--help'"],
    [['--profile='], "option '--profile' needs a non-empty value"],
    [['--help=yes'], "option '--help' does not take a value"],
  ])('%j names the bad argument on stderr, points to --help, exits 2', async (argv, message) => {
    const c = capture();
    expect(await main(argv, c.io)).toBe(2);
    const lines = c.stderr().split('\n');
    expect(lines[0]).toContain(`hermes-gateway: ${message}`);
    expect(lines[1]).toBe("Run 'hermes-gateway --help' for usage.");
    expect(c.stdout()).toBe('');
  });
});
