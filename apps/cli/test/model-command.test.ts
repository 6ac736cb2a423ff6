/**
 * `hermes model` in process: the list from the provider's `GET /v1/models` (the testkit server),
 * the built-in table when the provider rejects the key, cannot be reached, never answers (timeout,
 * Ctrl-C) or has no key at all, `--json`, and `set` (comments kept, a warning for an unknown name).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type ScriptedServer, script, startScriptedServer } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../src/index.ts';
import { capture } from './capture.ts';

const home = () => process.env.HERMES_HOME as string;
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const KEY = 'sk-model-test-0123456789abcdef';

async function model(
  argv: string[],
  options: { env?: Record<string, string>; signal?: AbortSignal } = {},
) {
  const c = capture({ HERMES_HOME: home(), ...options.env });
  const io = { ...c.io, ...(options.signal ? { signal: options.signal } : {}) };
  const code = await main(['model', ...argv], io as Parameters<typeof main>[1]);
  return { code, stdout: c.stdout(), stderr: c.stderr() };
}

function configure(provider: string, current: string, baseUrl?: string): void {
  writeFileSync(
    join(home(), 'config.yaml'),
    `# my settings\nmodel:\n  provider: ${provider}\n  default: ${current} # the usual one\n${
      baseUrl ? `  base_url: ${baseUrl}\n` : ''
    }`,
  );
}

async function scripted(...ids: string[]): Promise<ScriptedServer> {
  const server = await startScriptedServer(script().models(...ids));
  closers.push(() => server.close());
  return server;
}

/** A server whose every answer is `status` with an OpenAI error body. */
async function answering(status: number, onRequest?: () => void): Promise<string> {
  const server: Server = createServer((req, res) => {
    onRequest?.();
    if (status === 0) return; // never answers
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: 'Incorrect API key provided.', code: 'x' } }));
    req.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

describe('hermes model list', () => {
  it("lists the provider's models with context length, price and the default marked", async () => {
    const server = await scripted('gpt-4o', 'gpt-4o-mini', 'local-llama');
    configure('openai', 'gpt-4o-mini', server.baseUrl('openai-chat'));
    const result = await model([]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe(`Provider: openai at ${server.baseUrl('openai-chat')}`);
    expect(lines[1]).toBe('Default model: gpt-4o-mini');
    expect(lines[2]).toBe('Models listed by the provider (3), price per 1M tokens:');
    expect(lines.slice(3)).toEqual([
      '  gpt-4o         128k  $2.50 / $10.00',
      '* gpt-4o-mini    128k  $0.15 / $0.60',
      '  local-llama       ?',
      '',
    ]);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models']);
    expect((await model(['list'])).stdout).toBe(result.stdout);
  });

  it('falls back to the built-in table on a rejected key: one classified line, no key', async () => {
    configure('openai', 'gpt-4o', await answering(401));
    const result = await model([], { env: { OPENAI_API_KEY: KEY } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'could not list the models (auth): Incorrect API key provided.; showing the built-in table instead.',
    );
    expect(result.stdout).toMatch(/Models from the built-in table \(\d+\)/);
    expect(result.stdout).toMatch(/^\* gpt-4o +128k {2}\$2\.50 \/ \$10\.00$/m);
    expect(result.stdout).toMatch(/^ {2}gpt-4\.1 +1\.05M {2}\$2\.00 \/ \$8\.00$/m);
    expect(result.stdout).not.toMatch(/claude|gemini/);
    expect(result.stdout + result.stderr).not.toContain(KEY);
  });

  it('falls back to the table when the server is down', async () => {
    const server = await scripted('gpt-4o');
    const url = server.baseUrl('openai-chat');
    await server.close();
    configure('openai', 'gpt-4o', url);
    const result = await model([]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/could not list the models \((server_error|unknown)\)/);
    expect(result.stdout).toMatch(/^\* gpt-4o /m);
    expect(result.stdout + result.stderr).not.toMatch(/\n\s+at /);
  });

  it('times out after --timeout seconds, and Ctrl-C (the signal) cancels the listing', async () => {
    configure('openai', 'gpt-4o', await answering(0));
    const timedOut = await model(['--timeout', '1']);
    expect(timedOut.code).toBe(0);
    expect(timedOut.stdout).toContain('could not list the models (timeout): no answer in time');
    // Cancelled once the request has reached the server, as Ctrl-C during the listing would.
    const controller = new AbortController();
    configure('openai', 'gpt-4o', await answering(0, () => controller.abort()));
    const cancelled = await model([], { signal: controller.signal });
    expect(cancelled.code).toBe(0);
    expect(cancelled.stdout).toContain('listing cancelled; showing the built-in table instead.');
  });

  it('without a key shows the table and says what is missing', async () => {
    configure('anthropic', 'claude-sonnet-4-5');
    const result = await model([], { env: { ANTHROPIC_API_KEY: '' } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Provider: anthropic\n');
    expect(result.stdout).toContain('No API key for anthropic');
    expect(result.stdout).toMatch(/^\* claude-sonnet-4-5 +200k {2}\$3\.00 \/ \$15\.00$/m);
    expect(result.stdout).toMatch(/^ {2}claude-opus-4-1 +200k {2}\$15\.00 \/ \$75\.00$/m);
  });

  it('lists an Anthropic server with its own list shape', async () => {
    const server = await scripted('claude-sonnet-4-5', 'claude-haiku-4-5');
    configure('anthropic', 'claude-haiku-4-5', server.baseUrl('anthropic-messages'));
    const result = await model([], { env: { ANTHROPIC_API_KEY: KEY } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Models listed by the provider (2)');
    expect(result.stdout).toMatch(/^\* claude-haiku-4-5 +200k {2}\$1\.00 \/ \$5\.00$/m);
  });

  it('--json prints every field for scripts', async () => {
    const server = await scripted('gpt-4o', 'local-llama');
    configure('openai', 'local-llama', server.baseUrl('openai-chat'));
    const result = await model(['list', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      provider: 'openai',
      baseUrl: server.baseUrl('openai-chat'),
      current: 'local-llama',
      source: 'provider',
      problem: null,
      models: [
        {
          id: 'gpt-4o',
          contextLength: 128_000,
          price: { input: 2.5, output: 10 },
          current: false,
        },
        { id: 'local-llama', contextLength: null, price: null, current: true },
      ],
    });
  });

  it('says when no provider is configured, and rejects unknown subcommands', async () => {
    const none = await model([], {
      env: { OPENROUTER_API_KEY: '', ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '' },
    });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('hermes model: No model provider is configured');
    const bad = await model(['frobnicate']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("unknown subcommand 'frobnicate'");
    expect((await model(['set'])).code).toBe(2);
    expect((await model(['--timeout', 'soon'])).code).toBe(2);
    expect((await model(['--help'])).stdout).toContain('Usage: hermes model [list|set <name>]');
  });
});

describe('hermes model set', () => {
  it('writes model.default, keeps the comments and says what changed', async () => {
    const server = await scripted('gpt-4o', 'gpt-4o-mini');
    configure('openai', 'gpt-4o', server.baseUrl('openai-chat'));
    const result = await model(['set', 'gpt-4o-mini']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Default model: gpt-4o → gpt-4o-mini (model.default in');
    const text = readFileSync(join(home(), 'config.yaml'), 'utf8');
    expect(text).toContain('# my settings');
    expect(text).toContain('default: gpt-4o-mini # the usual one');
    const again = await model(['set', 'gpt-4o-mini']);
    expect(again.stdout).toBe('The default model is already gpt-4o-mini; nothing changed.\n');
  });

  it('warns, but sets, a name the provider does not list; --no-check asks nothing', async () => {
    const server = await scripted('gpt-4o');
    configure('openai', 'gpt-4o', server.baseUrl('openai-chat'));
    const result = await model(['set', 'gpt-4o-typo']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('warning: gpt-4o-typo is not among the models of openai');
    expect(readFileSync(join(home(), 'config.yaml'), 'utf8')).toContain('default: gpt-4o-typo');
    const requests = server.requests.length;
    const unchecked = await model(['set', 'other', '--no-check']);
    expect(unchecked.stderr).toBe('');
    expect(unchecked.stdout).toContain('gpt-4o-typo → other');
    expect(server.requests).toHaveLength(requests);
  });
});
