/**
 * Plugins end to end, through the built `hermes` binary and the scripted model: the plugin SDK
 * README's example (`packages/plugin-sdk/examples/hello/`, plain ESM importing the SDK by name,
 * no node_modules) installed in HERMES_HOME/plugins/hello beside a plugin that throws; the
 * bundled holographic memory selected by `memory.provider`.
 */
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSessionStore } from '@hermes/state';
import { type ScriptedServer, script, startScriptedServer } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { configureScriptedModel, hermesHome, runHermes, workDir } from './chat-harness.ts';

const HELLO = fileURLToPath(
  new URL('../../../packages/plugin-sdk/examples/hello', import.meta.url),
);

let server: ScriptedServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The user's plugins folder with the README example and a plugin whose entry throws. */
function installPlugins(): void {
  const plugins = join(hermesHome(), 'plugins');
  cpSync(HELLO, join(plugins, 'hello'), { recursive: true });
  const broken = join(plugins, 'broken');
  mkdirSync(broken, { recursive: true });
  writeFileSync(
    join(broken, 'package.json'),
    JSON.stringify({ name: 'hermes-plugin-broken', version: '0.1.0', type: 'module', hermes: {} }),
  );
  writeFileSync(join(broken, 'index.js'), "throw new Error('broken on purpose');\n");
}

function requestText(index: number): string {
  return JSON.stringify(server?.requests[index]?.body ?? null);
}

describe('plugins through hermes', { timeout: 120_000 }, () => {
  it('offers the plugin tool, blocks by hook, adds context, runs the command, skips the broken one', async () => {
    installPlugins();
    server = await startScriptedServer(
      script()
        .toolCall('greet', { who: 'Ada' }, 'call_greet')
        .toolCall('terminal', { command: 'rm -rf build' }, 'call_rm')
        .next()
        .text('Greeted Ada; the cleanup was refused.'),
    );
    configureScriptedModel(server.url, 'plugins:\n  enabled: [hello, broken]\n');
    const cwd = workDir();
    mkdirSync(join(cwd, 'build'));
    const result = await runHermes(['chat', '-q', 'greet Ada and clean up'], cwd);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stderr).not.toContain('Warning'); // e.g. Node's ExperimentalWarning
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Greeted Ada; the cleanup was refused.\n');
    // The broken plugin is reported once and skipped; the agent still ran.
    expect(result.stderr).toContain('hermes-plugin-broken');
    expect(result.stderr).toContain('broken on purpose');
    // The tool was offered, and the preLlmCall context reached the request.
    const first = requestText(0);
    expect(first).toContain('"name":"greet"');
    expect(first).toContain('The user prefers short answers.');
    // The next request carries the tool's answer and the hook's refusal; build/ still exists.
    const second = requestText(1);
    expect(second).toContain('Hello, Ada!');
    expect(second).toContain('The hello plugin does not allow rm -rf.');
    // The context was sent, never stored: the stored user message is what the user typed.
    const store = openSessionStore({ hermesHome: hermesHome() });
    try {
      const [session] = await store.listSessions({ limit: 1 });
      const messages = await store.getMessages(session?.id ?? '');
      const users = messages.filter((m) => m.message.role === 'user').map((m) => m.message.content);
      expect(users).toEqual(['greet Ada and clean up']);
    } finally {
      await store.close();
    }
    expect(existsSync(join(cwd, 'build'))).toBe(true);

    const command = await runHermes(['hello', 'Grace'], cwd);
    expect(command.code).toBe(0);
    expect(command.stdout).toBe('Hello, Grace!\n');
    expect(command.stderr).toBe('');

    const list = await runHermes(['plugins', 'list'], cwd);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/hermes-plugin-hello.*loaded/);
    expect(list.stdout).toMatch(/hermes-plugin-broken.*failed/);
  });

  it('stores a fact with the holographic plugin and recalls it in the next run', async () => {
    server = await startScriptedServer(
      script()
        .toolCall('fact_store', { action: 'add', content: 'The deploy target is Fly.io in fra.' })
        .next()
        .text('Noted.')
        .next()
        .text('You deploy to Fly.io.'),
    );
    configureScriptedModel(server.url, 'memory:\n  provider: holographic\n');
    const cwd = workDir();
    const first = await runHermes(['chat', '-q', 'remember: we deploy to Fly.io in fra'], cwd);
    expect(first.stderr).not.toMatch(/\n\s+at /);
    expect(first.code).toBe(0);
    expect(requestText(0)).toContain('"name":"fact_store"');

    const second = await runHermes(['chat', '-q', 'where do we deploy to?'], cwd);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe('You deploy to Fly.io.\n');
    // A new process recalled the fact from HERMES_HOME/memory_store.db into the request.
    expect(requestText(2)).toContain('The deploy target is Fly.io in fra.');
  });

  it('names the available providers for an unknown memory.provider', async () => {
    server = await startScriptedServer(script().text('unused'));
    configureScriptedModel(server.url, 'memory:\n  provider: holograpic\n');
    const result = await runHermes(['chat', '-q', 'hi'], workDir());
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('holograpic');
    expect(result.stderr).toContain('holographic');
    expect(server.requests).toHaveLength(0);
  });
});
