/**
 * Plugins in the gateway, through `runGatewayCommand` with injected signals: real plugin folders
 * (plain `.mjs` importing `@hermes/plugin-sdk` by name) in the test's HERMES_HOME, a real
 * api_server in front of agents answered by a @hermes/testkit scripted model, and a plugin
 * platform (`loopback`) whose adapter lives in the plugin file.
 */
import { EventEmitter } from 'node:events';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type ScriptBuilder,
  type ScriptedServer,
  script,
  startScriptedServer,
} from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { type ProcessEvents, runGatewayCommand } from '../src/index.ts';
import { esmPlugin, writePlugin } from './fixtures/plugins/write-plugin.ts';

const home = () => process.env.HERMES_HOME as string;
const API_KEY = 'plugin-gw-key-0123456789abcdef0';
const API_SERVER = '  api_server:\n    enabled: true\n    port: 0';
/** Where the loopback plugin finds the test (plugin and test share this process). */
const LOOPBACK = Symbol.for('hermes-test:gateway-loopback');

let model: ScriptedServer | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
  delete (globalThis as Record<symbol, unknown>)[LOOPBACK];
});

/** Text written so far, and a promise for the first moment it matches. */
class Capture {
  text = '';
  readonly #waiters: { pattern: RegExp; resolve: (match: RegExpMatchArray) => void }[] = [];
  write = (chunk: string): boolean => {
    this.text += chunk;
    for (const waiter of [...this.#waiters]) {
      const match = this.text.match(waiter.pattern);
      if (match) {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        waiter.resolve(match);
      }
    }
    return true;
  };
  waitFor(pattern: RegExp): Promise<RegExpMatchArray> {
    const match = this.text.match(pattern);
    if (match) return Promise.resolve(match);
    return new Promise((resolve) => this.#waiters.push({ pattern, resolve }));
  }
}

async function configure(turns: ScriptBuilder, yaml: string): Promise<void> {
  model = await startScriptedServer(turns);
  writeFileSync(
    join(home(), 'config.yaml'),
    `model:\n  provider: openai\n  default: scripted-model\n  base_url: ${model.baseUrl('openai-chat')}\n${yaml}\n`,
  );
}

function start() {
  const stdout = new Capture();
  const stderr = new Capture();
  const signals = new EventEmitter();
  const exit = runGatewayCommand({
    hermesHome: home(),
    env: { OPENAI_API_KEY: 'sk-test-provider-key', API_SERVER_KEY: API_KEY },
    stdout,
    stderr,
    signals: signals as unknown as ProcessEvents,
    cwd: home(),
    deps: { agents: { cwd: home() } },
  });
  return { stdout, stderr, signals, exit };
}

/** Resolves `exit`; a gateway that starts instead is stopped, so a wrong start fails fast. */
async function exitWithoutServing(run: ReturnType<typeof start>): Promise<number> {
  const ready = run.stdout.waitFor(/gateway ready/).then(() => {
    run.signals.emit('SIGTERM', 'SIGTERM');
  });
  const code = await run.exit;
  void ready;
  return code;
}

async function listening(run: ReturnType<typeof start>): Promise<string> {
  const started = await Promise.race([
    run.stdout.waitFor(/api_server listening on (http:\/\/127\.0\.0\.1:\d+)\n/),
    run.exit.then((code) => `exited ${code}: ${run.stderr.text}`),
  ]);
  if (typeof started === 'string') throw new Error(started);
  return started[1] as string;
}

function chat(url: string, content: string): Promise<Response> {
  return fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'hermes-agent', messages: [{ role: 'user', content }] }),
  });
}

function requestText(index: number): string {
  return JSON.stringify(model?.requests[index]?.body ?? null);
}

const userPlugin = (folder: string) => join(home(), 'plugins', folder);

/** A tool, a context line for every turn, and a sessionEnd hook writing to its storage. */
function writeToolsPlugin(): void {
  writePlugin(
    userPlugin('tools'),
    esmPlugin(
      'hermes-plugin-tools',
      `ctx.registerTool({ schema: { type: 'function', function: { name: 'shout', description: 'Shouts.', parameters: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] } } }, handler: (args) => String(args.word).toUpperCase() + '!' });
    ctx.registerHook('preLlmCall', () => ({ context: 'Plugin context: answer in one line.' }));
    ctx.registerHook('sessionEnd', ({ sessionId, platform }) => {
      appendFileSync(ctx.storage.path('ended.log'), sessionId + ' ' + platform + '\\n');
    });`,
      "import { appendFileSync } from 'node:fs';",
    ),
  );
}

describe('runGatewayCommand with plugins: tools and hooks', () => {
  it('offers and calls a plugin tool, sends the preLlmCall context, runs sessionEnd at the drain', async () => {
    writeToolsPlugin();
    await configure(
      script().toolCall('shout', { word: 'hey' }, 'call_shout').next().text('It shouted.'),
      `plugins:\n  enabled: [tools]\nplatforms:\n${API_SERVER}`,
    );
    const run = start();
    const answer = await chat(await listening(run), 'shout hey');
    expect(answer.status).toBe(200);
    const sessionId = answer.headers.get('x-hermes-session-id');
    const body = (await answer.json()) as { choices: { message: { content: string } }[] };
    expect(body.choices[0]?.message.content).toBe('It shouted.');
    expect(requestText(0)).toContain('"name":"shout"');
    expect(requestText(0)).toContain('Plugin context: answer in one line.');
    expect(requestText(1)).toContain('HEY!');
    const ended = join(home(), 'plugin-data', 'hermes-plugin-tools', 'ended.log');
    expect(existsSync(ended)).toBe(false);

    run.signals.emit('SIGTERM', 'SIGTERM');
    expect(await run.exit).toBe(0);
    expect(readFileSync(ended, 'utf8')).toBe(`${sessionId} api_server\n`);
    expect(run.stderr.text).toBe('');
  });

  it('reports a broken plugin once, on stderr and in gateway.log, and serves without it', async () => {
    writeToolsPlugin();
    writePlugin(userPlugin('broken'), {
      pkg: { name: 'hermes-plugin-broken', main: 'index.mjs' },
      files: { 'index.mjs': "throw new Error('broken on purpose');\n" },
    });
    await configure(
      script().text('Still here.'),
      `plugins:\n  enabled: [tools, broken]\nplatforms:\n${API_SERVER}`,
    );
    const run = start();
    const answer = await chat(await listening(run), 'hi');
    expect(await answer.text()).toContain('Still here.');
    expect(requestText(0)).toContain('"name":"shout"');
    run.signals.emit('SIGTERM', 'SIGTERM');
    expect(await run.exit).toBe(0);
    const lines = run.stderr.text.split('\n').filter((line) => line.includes('broken on purpose'));
    expect(lines).toEqual([
      'hermes-gateway: warning: plugin hermes-plugin-broken not loaded (failed): the entry threw: broken on purpose',
    ]);
    const log = readFileSync(join(home(), 'logs', 'gateway.log'), 'utf8');
    expect(log).toMatch(/WARN .*plugin hermes-plugin-broken not loaded \(failed\)/);
  });

  it('exits 2 for a memory.provider nothing provides, naming the available ones', async () => {
    writePlugin(
      userPlugin('scratch'),
      esmPlugin(
        'hermes-plugin-scratch',
        `ctx.registerMemoryProvider({ name: 'scratch', create: () => { throw new Error('unused'); } });`,
      ),
    );
    await configure(
      script().text('unused'),
      `plugins:\n  enabled: [scratch]\nmemory:\n  provider: nope\nplatforms:\n${API_SERVER}`,
    );
    const run = start();
    expect(await exitWithoutServing(run)).toBe(2);
    expect(run.stderr.text).toContain('memory.provider "nope" is not available');
    expect(run.stderr.text).toContain('Available: builtin, scratch.');
    expect(run.stdout.text).toBe('');
    expect(model?.requests).toHaveLength(0);
  });
});

/** The loopback plugin: its adapter hands the test an `inject` function and reports each send. */
const LOOPBACK_PLUGIN = `
class LoopbackAdapter extends PlatformAdapter {
  platform = 'loopback';
  constructor(settings) { super(); this.settings = settings; }
  async connect(onMessage) {
    const test = globalThis[Symbol.for('hermes-test:gateway-loopback')];
    let n = 0;
    test.connected({
      settings: this.settings,
      inject: (text) => onMessage({
        platform: 'loopback', chatId: String(this.settings.chat_id), userId: 'ada', text,
        messageId: 'm' + ++n, receivedAt: Date.now(), isDirect: true,
      }),
    });
  }
  async disconnect() {}
  async send(target, message) {
    globalThis[Symbol.for('hermes-test:gateway-loopback')].sent(target, message);
    return { messageId: 'sent-' + Date.now() };
  }
  capabilities() {
    return { maxMessageLength: 4000, canEdit: false, supportsDrafts: false, hasOwnAccessPolicy: false, supportsThreads: false, supportsMarkdown: false };
  }
}`;

interface LoopbackTest {
  connected(value: {
    settings: Record<string, unknown>;
    inject(text: string): Promise<void>;
  }): void;
  sent(target: { chatId: string }, message: { text: string }): void;
}

/** Installs the test's side of the loopback plugin; resolves as the adapter connects and sends. */
function loopbackTest(answer: string) {
  let connected!: (value: Parameters<LoopbackTest['connected']>[0]) => void;
  let delivered!: (value: { chatId: string; text: string }) => void;
  const test: LoopbackTest = {
    connected: (value) => connected(value),
    sent: (target, message) => {
      if (message.text.includes(answer)) delivered({ chatId: target.chatId, text: message.text });
    },
  };
  (globalThis as Record<symbol, unknown>)[LOOPBACK] = test;
  return {
    connected: new Promise<Parameters<LoopbackTest['connected']>[0]>((resolve) => {
      connected = resolve;
    }),
    delivered: new Promise<{ chatId: string; text: string }>((resolve) => {
      delivered = resolve;
    }),
  };
}

describe('runGatewayCommand with plugins: platforms', () => {
  it('starts a plugin platform with its settings and delivers the answer through its send', async () => {
    writePlugin(
      userPlugin('loopback'),
      esmPlugin(
        'hermes-plugin-loopback',
        "ctx.registerPlatform('loopback', (settings) => new LoopbackAdapter(settings));",
        `import { PlatformAdapter } from '@hermes/plugin-sdk';\n${LOOPBACK_PLUGIN}`,
      ),
    );
    await configure(
      script().text('Answer through loopback.'),
      'plugins:\n  enabled: [loopback]\nplatforms:\n  loopback:\n    enabled: true\n    allow_all_users: true\n    chat_id: room-7',
    );
    const test = loopbackTest('Answer through loopback.');
    const run = start();
    const adapter = await Promise.race([
      test.connected,
      run.exit.then((code) => {
        throw new Error(`exited ${code}: ${run.stderr.text}`);
      }),
    ]);
    expect(adapter.settings).toMatchObject({ enabled: true, chat_id: 'room-7' });
    await run.stdout.waitFor(/gateway ready \(1 adapter\)/);
    expect(run.stdout.text).toContain('loopback connected\n');

    await adapter.inject('hello over loopback');
    expect(await test.delivered).toEqual({ chatId: 'room-7', text: 'Answer through loopback.' });
    expect(requestText(0)).toContain('hello over loopback');
    run.signals.emit('SIGTERM', 'SIGTERM');
    expect(await run.exit).toBe(0);
  });

  it('reports plugin platforms that cannot be created and serves the rest', async () => {
    writePlugin(
      userPlugin('loopback'),
      esmPlugin(
        'hermes-plugin-loopback',
        `ctx.registerPlatform('loopback', () => { throw new Error('no loopback today'); });
    ctx.registerPlatform('mirror', async () => ({ platform: 'other', async connect() {}, async disconnect() {}, async send() { return { messageId: '1' }; }, capabilities() { return {}; } }));`,
      ),
    );
    await configure(
      script().text('Served.'),
      `plugins:\n  enabled: [loopback]\nplatforms:\n${API_SERVER}\n  loopback:\n    enabled: true\n  mirror:\n    enabled: true`,
    );
    const run = start();
    const answer = await chat(await listening(run), 'hi');
    expect(await answer.text()).toContain('Served.');
    run.signals.emit('SIGTERM', 'SIGTERM');
    expect(await run.exit).toBe(0);
    expect(run.stderr.text).toBe(
      'hermes-gateway: warning: platform loopback is enabled but its adapter from plugin ' +
        'hermes-plugin-loopback could not be created: no loopback today\n' +
        'hermes-gateway: warning: platform mirror is enabled but its adapter from plugin ' +
        'hermes-plugin-loopback could not be created: the adapter says its platform is "other", ' +
        'not "mirror"\n',
    );
    expect(run.stdout.text).toContain('gateway ready (1 adapter)');
  });

  it('names the plugin to enable for a platform only a not-enabled plugin offers', async () => {
    writePlugin(userPlugin('loopback'), {
      ...esmPlugin('hermes-plugin-loopback', "throw new Error('not imported');"),
      pkg: {
        name: 'hermes-plugin-loopback',
        main: 'index.mjs',
        hermes: { kind: 'platform', provides: { platforms: ['loopback'] } },
      },
    });
    await configure(
      script().text('x'),
      `platforms:\n${API_SERVER}\n  loopback:\n    enabled: true\n  telegram:\n    enabled: true`,
    );
    const run = start();
    await listening(run);
    run.signals.emit('SIGTERM', 'SIGTERM');
    expect(await run.exit).toBe(0);
    expect(run.stderr.text).toBe(
      'hermes-gateway: warning: platform loopback is enabled but no adapter provides it: plugin ' +
        'hermes-plugin-loopback offers it; add it to plugins.enabled in config.yaml\n' +
        'hermes-gateway: warning: platform telegram is enabled but no adapter provides it: no ' +
        'built-in adapter serves it and no enabled plugin registers it (install a plugin that ' +
        'provides it and add it to plugins.enabled)\n',
    );
  });
});
