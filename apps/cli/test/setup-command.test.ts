/**
 * `hermes setup`: flags and the interactive wizard write config.yaml and .env; the
 * connectivity test runs against real HTTP on 127.0.0.1 (the testkit server, a server that
 * rejects every key, and a closed port).
 */

import { readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { script, startScriptedServer } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { testConnectivity } from '../src/commands/setup/connectivity.ts';
import { main } from '../src/index.ts';
import { capture } from './capture.ts';

const home = () => process.env.HERMES_HOME as string;
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function setup(argv: string[], input?: string) {
  const c = capture();
  const stdin = input === undefined ? Readable.from([]) : Readable.from([input]);
  const code = await main(['setup', ...argv], { ...c.io, stdin } as Parameters<typeof main>[1]);
  return { code, stdout: c.stdout(), stderr: c.stderr() };
}

async function scripted() {
  const server = await startScriptedServer(script().models('local-llama', 'other').text('OK'));
  closers.push(() => server.close());
  return server;
}

/** A server answering 401 to everything, like a service rejecting the key. */
async function rejecting(): Promise<string> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        error: {
          message: 'Incorrect API key provided.',
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

describe('hermes setup with flags', () => {
  it('saves a local server and its model, and the connection test lists its models', async () => {
    const server = await scripted();
    const result = await setup([
      '--provider',
      'custom',
      '--model',
      'local-llama',
      '--base-url',
      server.baseUrl('openai-chat'),
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('✓ custom at http://127.0.0.1:');
    expect(result.stdout).toContain('2 models listed; local-llama is available');
    expect(readFileSync(join(home(), 'config.yaml'), 'utf8')).toBe(
      `model:\n  provider: custom\n  default: local-llama\n  base_url: ${server.baseUrl('openai-chat')}\n`,
    );
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models']);
  });

  it('stores the key in .env (0600) only, and --no-test makes no request', async () => {
    const result = await setup([
      '--provider',
      'openai',
      '--api-key',
      'sk-setup-test-0123456789abcd',
      '--no-test',
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Saved OPENAI_API_KEY to');
    expect(result.stdout).not.toContain('sk-setup-test-0123456789abcd');
    expect(readFileSync(join(home(), '.env'), 'utf8')).toBe(
      'OPENAI_API_KEY=sk-setup-test-0123456789abcd\n',
    );
    expect(statSync(join(home(), '.env')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(home(), 'config.yaml'), 'utf8')).not.toContain('sk-');
    expect(readFileSync(join(home(), 'config.yaml'), 'utf8')).toContain('default: gpt-4o');
  });

  it('reports a rejected key as a classified one-line error and exits 1', async () => {
    const url = await rejecting();
    const result = await setup([
      '--provider',
      'custom',
      '--model',
      'm',
      '--base-url',
      url,
      '--api-key',
      'bad-key-123456',
    ]);
    expect(result.code).toBe(1);
    const line = result.stdout.split('\n').find((l) => l.startsWith('✗')) ?? '';
    expect(line).toContain('failed (auth)');
    expect(line).toContain('check it');
    expect(result.stdout).not.toContain('bad-key-123456');
  });

  it('reports an unreachable server without a stack trace', async () => {
    const server = await scripted();
    const url = server.baseUrl('openai-chat');
    await server.close();
    const result = await setup([
      '--provider',
      'custom',
      '--model',
      'm',
      '--base-url',
      url,
      '--timeout',
      '5',
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/✗ custom at .*: failed \((server_error|timeout|unknown)\)/);
    expect(result.stdout + result.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('hermes setup, interactive', () => {
  it('asks for provider, base URL, model and key, and saves the answers', async () => {
    const server = await scripted();
    const answers = ['4', server.baseUrl('openai-chat'), 'local-llama', ''].join('\n');
    const result = await setup([], `${answers}\n`);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Which model provider?');
    expect(result.stdout).toContain('Base URL');
    expect(result.stdout).toContain(
      'API key (saved as CUSTOM_API_KEY in .env; Enter if the server needs none; not shown)',
    );
    expect(result.stdout).toContain('✓ custom');
    expect(readFileSync(join(home(), 'config.yaml'), 'utf8')).toContain('provider: custom');
  });

  it('offers the provider default model and asks again for a bad URL', async () => {
    const result = await setup(
      ['--no-test'],
      ['anthropic', 'not a url', '', '', 'sk-ant-key-abcdefghijklmnop'].join('\n'),
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('That is not an http(s) URL');
    expect(result.stdout).toContain('Model [claude-sonnet-4-5]');
    expect(readFileSync(join(home(), '.env'), 'utf8')).toBe(
      'ANTHROPIC_API_KEY=sk-ant-key-abcdefghijklmnop\n',
    );
  });
});

describe('testConnectivity', () => {
  it('falls back to one tiny chat call when the server has no model listing', async () => {
    const seen: string[] = [];
    const server: Server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      req.resume();
      req.on('end', () => {
        if (req.url === '/v1/models') {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: 'Not Found' } }));
          return;
        }
        // The chat adapter streams: answer in server-sent events.
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const chunk = (delta: object, finish: string | null) =>
          `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'tiny', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
        res.end(
          `${chunk({ role: 'assistant', content: 'OK' }, null)}${chunk({}, 'stop')}data: [DONE]\n\n`,
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const result = await testConnectivity(
      { provider: 'custom', model: 'tiny', baseUrl: url, apiKey: 'k' },
      {},
    );
    expect(result).toEqual({ ok: true, line: `custom at ${url}: connected, tiny answered` });
    expect(seen).toEqual(['GET /v1/models', 'POST /v1/chat/completions']);
  });
});
