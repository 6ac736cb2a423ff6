/**
 * End-to-end: `hermes model` through the built binary in the test's HERMES_HOME, against the
 * testkit server's `GET /v1/models` — the list, the list with the server down (the built-in
 * table, exit 0), `set` (config.yaml changed, comments kept), `--json` — and `/model` in chat,
 * which lists the same models and switches the next turn's model.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ScriptedServer, script, startScriptedServer } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { hermesHome, Interactive, runHermes, workDir } from './chat-harness.ts';

let server: ScriptedServer | undefined;
let repl: Interactive | undefined;
afterEach(async () => {
  repl?.kill();
  repl = undefined;
  await server?.close();
  server = undefined;
});

const CONFIG = (url: string) =>
  `# Hermes settings\nmodel:\n  provider: openai\n  # the model used unless -m says otherwise\n  default: gpt-4o\n  base_url: ${url}\n`;

async function configured(builder = script()): Promise<ScriptedServer> {
  server = await startScriptedServer(builder.models('gpt-4o', 'gpt-4o-mini', 'local-llama'));
  writeFileSync(join(hermesHome(), 'config.yaml'), CONFIG(server.baseUrl('openai-chat')));
  return server;
}

describe('built hermes model', () => {
  it("lists the provider's models with context length and price, the default marked", async () => {
    await configured();
    const result = await runHermes(['model'], workDir());
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Provider: openai at http://127.0.0.1:');
    expect(result.stdout).toContain('Default model: gpt-4o\n');
    expect(result.stdout).toContain('Models listed by the provider (3), price per 1M tokens:');
    expect(result.stdout).toMatch(/^\* gpt-4o +128k {2}\$2\.50 \/ \$10\.00$/m);
    expect(result.stdout).toMatch(/^ {2}gpt-4o-mini +128k {2}\$0\.15 \/ \$0\.60$/m);
    expect(result.stdout).toMatch(/^ {2}local-llama +\?$/m);
  });

  it('falls back to the built-in table when the server is down, and exits 0', async () => {
    const url = (await configured()).baseUrl('openai-chat');
    await server?.close();
    server = undefined;
    const result = await runHermes(['model', 'list', '--timeout', '5'], workDir());
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe(`Provider: openai at ${url}`);
    expect(lines[2]).toMatch(
      /^could not list the models \((server_error|unknown|timeout)\): .+; showing the built-in table instead\.$/,
    );
    expect(lines[3]).toMatch(/^Models from the built-in table \(\d+\), price per 1M tokens:$/);
    expect(result.stdout).toMatch(/^\* gpt-4o +128k {2}\$2\.50 \/ \$10\.00$/m);
    expect(result.stdout).toMatch(/^ {2}o3 +200k$/m);
    expect(result.stdout + result.stderr).not.toMatch(/\n\s+at /);
  });

  it('set writes model.default and keeps the comments', async () => {
    const { baseUrl } = await configured();
    const result = await runHermes(['model', 'set', 'gpt-4o-mini'], workDir());
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^Default model: gpt-4o → gpt-4o-mini \(model\.default in .+\)$/m,
    );
    expect(readFileSync(join(hermesHome(), 'config.yaml'), 'utf8')).toBe(
      CONFIG(baseUrl('openai-chat')).replace('default: gpt-4o', 'default: gpt-4o-mini'),
    );
    const unknown = await runHermes(['model', 'set', 'no-such-model'], workDir());
    expect(unknown.code).toBe(0);
    expect(unknown.stderr).toContain('warning: no-such-model is not among the models of openai');
    expect((await runHermes(['config', 'get', 'model.default'], workDir())).stdout).toBe(
      'no-such-model\n',
    );
  });

  it('--json prints the list for scripts', async () => {
    await configured();
    const result = await runHermes(['model', '--json'], workDir());
    expect(result.code).toBe(0);
    const parsed = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(parsed).toMatchObject({
      provider: 'openai',
      current: 'gpt-4o',
      source: 'provider',
      problem: null,
    });
    expect(parsed.models).toEqual([
      { id: 'gpt-4o', contextLength: 128_000, price: { input: 2.5, output: 10 }, current: true },
      {
        id: 'gpt-4o-mini',
        contextLength: 128_000,
        price: { input: 0.15, output: 0.6 },
        current: false,
      },
      { id: 'local-llama', contextLength: null, price: null, current: false },
    ]);
  });

  it('/model in chat lists the same models, and /model <name> switches the next turn', async () => {
    const model = await configured(script().text('Hello from the mini model.'));
    repl = new Interactive(['chat'], workDir());
    await repl.waitFor('Type /help');
    repl.send('/model');
    await repl.waitFor('Switch with /model <name>');
    expect(repl.stdout).toContain('Model: gpt-4o\n');
    expect(repl.stdout).toMatch(/^\* gpt-4o +128k {2}\$2\.50 \/ \$10\.00$/m);
    expect(repl.stdout).toMatch(/^ {2}local-llama +\?$/m);
    repl.send('/model gpt-4o-mini');
    await repl.waitFor('Model switched to gpt-4o-mini');
    repl.send('/model not-listed');
    await repl.waitFor('(not-listed is not among the listed models.)');
    repl.send('/model gpt-4o-mini');
    await repl.waitFor('Model switched to gpt-4o-mini', { count: 2 });
    repl.send('hi');
    await repl.waitFor('Hello from the mini model.');
    const calls = model.requests.map((r) => `${r.method} ${r.path}`);
    // The list was fetched once for the whole run.
    expect(calls).toEqual(['GET /v1/models', 'POST /v1/chat/completions']);
    expect((model.requests[1]?.body as { model?: string } | undefined)?.model).toBe('gpt-4o-mini');
    expect(await repl.end()).toBe(0);
  });
});
