import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ProcessEvents } from '@hermes/runtime';
import { script, startScriptedServer } from '@hermes/testkit';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { main, VERSION } from '../src/index.ts';
import { capture } from './capture.ts';

const KEY = 'main-test-key-0123456789abcdef';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

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
      expect(out).toContain('api_server  an OpenAI-compatible API server');
      expect(out).toContain('API_SERVER_ENABLED');
      expect(out).toContain('Logs: $HERMES_HOME/logs/gateway.log');
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

describe('main run / start / no command', () => {
  it.each([[[]], [['run']], [['start', '-p', 'work']]])(
    '%j with no adapter enabled says how to enable one and exits 2',
    async (argv) => {
      const c = capture();
      expect(await main(argv, c.io)).toBe(2);
      expect(c.stderr()).toMatch(/^hermes-gateway: No platform adapter is enabled/);
      expect(c.stderr()).toContain('API_SERVER_ENABLED=true');
      expect(c.stdout()).toBe('');
    },
  );

  it('serves the profile named by --profile until SIGTERM, then exits 0', async () => {
    const model = await startScriptedServer(script().text('From the work profile.'));
    const work = join(process.env.HERMES_HOME as string, 'profiles', 'work');
    mkdirSync(work, { recursive: true });
    writeFileSync(
      join(work, 'config.yaml'),
      `model:\n  provider: openai\n  default: m\n  base_url: ${model.baseUrl('openai-chat')}\n` +
        'learning:\n  titles: false\n' +
        `platforms:\n  api_server:\n    enabled: true\n    port: 0\n    key: ${KEY}\n`,
    );
    const signals = new EventEmitter();
    const out: string[] = [];
    let listening: (url: string) => void = () => {};
    const url = new Promise<string>((resolveUrl) => {
      listening = resolveUrl;
    });
    const exit = main(['start', '--profile', 'work'], {
      stdout: {
        write: (chunk: string) => {
          out.push(chunk);
          const found = /api_server listening on (\S+)/.exec(chunk);
          if (found) listening(found[1] as string);
        },
      },
      stderr: { write: () => true },
      env: { ...process.env, OPENAI_API_KEY: 'sk-test' },
      signals: signals as unknown as ProcessEvents,
    });
    try {
      const client = new OpenAI({ baseURL: `${await url}/v1`, apiKey: KEY, maxRetries: 0 });
      const answer = await client.chat.completions.create({
        model: 'hermes-agent',
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(answer.choices[0]?.message.content).toBe('From the work profile.');
      expect(existsSync(join(work, 'logs', 'gateway.log'))).toBe(true);
    } finally {
      signals.emit('SIGTERM', 'SIGTERM');
      expect(await exit).toBe(0);
      await model.close();
    }
    expect(out.join('')).toContain('gateway stopped');
  });

  it('refuses a --config file that does not exist with exit 2', async () => {
    const c = capture();
    expect(await main(['run', '--config', 'elsewhere.yaml'], c.io)).toBe(2);
    expect(c.stderr()).toContain(`--config ${resolve('elsewhere.yaml')}: no such file`);
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
    [['run', '-p', '../x'], "invalid profile name '../x'"],
  ])('%j names the bad argument on stderr, points to --help, exits 2', async (argv, message) => {
    const c = capture();
    expect(await main(argv, c.io)).toBe(2);
    const lines = c.stderr().split('\n');
    expect(lines[0]).toContain(`hermes-gateway: ${message}`);
    expect(lines[1]).toBe("Run 'hermes-gateway --help' for usage.");
    expect(c.stdout()).toBe('');
  });
});
