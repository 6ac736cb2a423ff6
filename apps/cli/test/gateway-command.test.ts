/**
 * `hermes gateway run`: the same server as `hermes-gateway run`, started from the CLI, answering
 * over the OpenAI wire, stopped by the context's signal (the CLI's Ctrl-C for embedders) with
 * exit 0, with the plugins config.yaml enables (the bundled holographic memory among them); and
 * the refusals a misconfigured gateway gives, in the CLI's words.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ScriptedServer, script, startScriptedServer } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { run } from '../src/commands/gateway.ts';
import { main } from '../src/index.ts';
import { capture } from './capture.ts';

const home = () => process.env.HERMES_HOME as string;
const API_KEY = 'cli-gateway-key-0123456789abcdef';

let model: ScriptedServer | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

/** Output so far, and a promise for the first time it matches a pattern. */
function watchedSink() {
  let text = '';
  const waiters: { pattern: RegExp; resolve: (m: RegExpMatchArray) => void }[] = [];
  return {
    text: () => text,
    write(chunk: string) {
      text += chunk;
      for (const waiter of [...waiters]) {
        const match = text.match(waiter.pattern);
        if (match) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(match);
        }
      }
      return true;
    },
    waitFor(pattern: RegExp): Promise<RegExpMatchArray> {
      const match = text.match(pattern);
      return match
        ? Promise.resolve(match)
        : new Promise((resolve) => waiters.push({ pattern, resolve }));
    },
  };
}

/** A model that answers once; the API server, when enabled, on a free port; `yaml` added. */
async function configure(yaml = ''): Promise<void> {
  model = await startScriptedServer(script().text('pong from the gateway'));
  writeFileSync(
    join(home(), 'config.yaml'),
    `model:\n  provider: openai\n  default: scripted-model\n  base_url: ${model.baseUrl('openai-chat')}\nlearning:\n  titles: false\nplatforms:\n  api_server:\n    port: 0\n${yaml}`,
  );
}

/** Starts `hermes gateway run` with the API server on; resolves its URL once it listens. */
async function serve() {
  const stdout = watchedSink();
  const stderr = watchedSink();
  const stop = new AbortController();
  const env = {
    ...process.env,
    OPENAI_API_KEY: 'sk-provider-key-for-tests',
    API_SERVER_ENABLED: 'true',
    API_SERVER_KEY: API_KEY,
  };
  const exit = run(['run'], { stdout, stderr, env, hermesHome: home(), signal: stop.signal });
  const started = await Promise.race([
    stdout.waitFor(/api_server listening on (http:\/\/127\.0\.0\.1:\d+)/),
    exit.then((code) => `exited ${code} before listening: ${stderr.text()}`),
  ]);
  if (typeof started === 'string') throw new Error(started);
  return { url: started[1] as string, stderr, exit, stop: () => stop.abort() };
}

function ping(url: string): Promise<Response> {
  return fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'hermes-agent', messages: [{ role: 'user', content: 'ping' }] }),
  });
}

describe('hermes gateway run', () => {
  it('serves the API server until stopped, then drains and exits 0', async () => {
    await configure();
    const gateway = await serve();
    const response = await ping(gateway.url);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { choices: { message: { content: string } }[] };
    expect(body.choices[0]?.message.content).toBe('pong from the gateway');
    gateway.stop();
    expect(await gateway.exit).toBe(0);
    expect(gateway.stderr.text()).toBe('');
    const log = readFileSync(join(home(), 'logs', 'gateway.log'), 'utf8');
    expect(log.length).toBeGreaterThan(0);
    expect(log).not.toContain(API_KEY);
  });

  it('gives the agents the plugins config.yaml enables, the bundled holographic memory too', async () => {
    const hello = fileURLToPath(
      new URL('../../../packages/plugin-sdk/examples/hello', import.meta.url),
    );
    cpSync(hello, join(home(), 'plugins', 'hello'), { recursive: true });
    await configure('plugins:\n  enabled: [hello]\nmemory:\n  provider: holographic\n');
    const gateway = await serve();
    expect((await ping(gateway.url)).status).toBe(200);
    const request = JSON.stringify(model?.requests[0]?.body);
    expect(request).toContain('"name":"greet"');
    expect(request).toContain('"name":"fact_store"');
    expect(request).toContain('The user prefers short answers.');
    gateway.stop();
    expect(await gateway.exit).toBe(0);
    expect(gateway.stderr.text()).toBe('');
  });

  it('refuses to start with no adapter enabled, saying how to enable one (exit 2)', async () => {
    await configure();
    const c = capture({ ...process.env, OPENAI_API_KEY: 'sk-provider-key-for-tests' });
    expect(await main(['gateway', 'run'], c.io)).toBe(2);
    expect(c.stderr()).toContain('hermes gateway:');
    expect(c.stderr()).toContain('API_SERVER_ENABLED=true');
  });

  it('refuses a short API key (exit 2) and an unknown subcommand (exit 2)', async () => {
    await configure();
    const short = capture({
      ...process.env,
      OPENAI_API_KEY: 'sk-provider-key-for-tests',
      API_SERVER_ENABLED: 'true',
      API_SERVER_KEY: 'short',
    });
    expect(await main(['gateway', 'run'], short.io)).toBe(2);
    expect(short.stderr()).toMatch(/at least 16/);
    expect(short.stderr()).not.toContain('short\n');
    const bad = capture();
    expect(await main(['gateway', 'serve'], bad.io)).toBe(2);
    expect(bad.stderr()).toContain("unknown subcommand 'serve'");
  });
});
