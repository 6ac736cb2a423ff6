/**
 * `checkpoints:` in config.yaml and `/rollback` through the gateway: the section reaches the
 * agent's settings, an unknown key is reported, and a real gateway (api_server in front of the
 * runtime's agent factory, a scripted model) lists and restores the checkpoint an agent's
 * `write_file` triggered.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type ScriptBuilder,
  type ScriptedServer,
  script,
  startScriptedServer,
} from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import {
  buildGatewayServer,
  checkConfig,
  type GatewayServer,
  listeningUrl,
  loadHermesConfig,
  readConfigSource,
} from '../src/index.ts';

const home = () => process.env.HERMES_HOME as string;
const API_KEY = 'cp-test-key-0123456789abcdef0123';
const ENV = { OPENAI_API_KEY: 'sk-provider-key-1234' };

let model: ScriptedServer | undefined;
let server: GatewayServer | undefined;
afterEach(async () => {
  await server?.close({ drainTimeoutMs: 1_000 });
  await model?.close();
  server = undefined;
  model = undefined;
});

async function configure(turns: ScriptBuilder, extraYaml: string) {
  model = await startScriptedServer(turns);
  writeFileSync(
    join(home(), 'config.yaml'),
    [
      'model:',
      '  provider: openai',
      '  default: scripted-model',
      `  base_url: ${model.baseUrl('openai-chat')}`,
      'learning:',
      '  enabled: false',
      '  titles: false',
      extraYaml,
      '',
    ].join('\n'),
  );
  return loadHermesConfig({ hermesHome: home(), env: ENV });
}

/** One chat completion through the api_server; resolves the answer's text. */
async function say(url: string, text: string): Promise<string> {
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${API_KEY}`,
      'content-type': 'application/json',
      'x-hermes-session-id': 'rollback-session',
    },
    body: JSON.stringify({ model: 'hermes-agent', messages: [{ role: 'user', content: text }] }),
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { choices: { message: { content: string } }[] };
  return body.choices[0]?.message.content ?? '';
}

describe('checkpoints: in config.yaml', () => {
  it('reaches the agent settings in createAgent’s spelling', async () => {
    const config = await configure(
      script().text('x'),
      'checkpoints:\n  enabled: false\n  max_files: 10\n  max_bytes: 2048',
    );
    expect(config.checkpoints).toEqual({ enabled: false, maxFiles: 10, maxBytes: 2048 });
  });

  it('reports an unknown key: a warning when loading, an error for config check', async () => {
    const config = await configure(script().text('x'), 'checkpoints:\n  max_file: 10');
    expect(config.warnings.join('\n')).toMatch(
      /checkpoints\.max_file.*unknown key.*did you mean 'max_files'/,
    );
    const check = checkConfig(readConfigSource(home()), ENV, home());
    expect(check.unknownKeys.map((unknown) => unknown.path)).toContain('checkpoints.max_file');
  });
});

describe('/rollback through the gateway', () => {
  it('lists the checkpoint a write_file triggered and restores the file', async () => {
    const work = join(home(), 'project');
    mkdirSync(work);
    writeFileSync(join(work, 'plan.md'), 'version one\n');
    const config = await configure(
      script()
        .toolCall('write_file', { path: join(work, 'plan.md'), content: 'version two\n' })
        .next()
        .toolCall('write_file', { path: join(work, 'extra.md'), content: 'more\n' })
        .next()
        .text('Rewrote the plan.'),
      `platforms:\n  api_server:\n    enabled: true\n    port: 0\n    key: ${API_KEY}`,
    );
    server = buildGatewayServer(config, { agents: { cwd: work } });
    await server.gateway.start();
    const url = listeningUrl(server.adapters[0] as (typeof server.adapters)[number]);
    if (!url) throw new Error('the api_server is not listening');

    expect(await say(url, 'rewrite the plan')).toBe('Rewrote the plan.');
    expect(readFileSync(join(work, 'plan.md'), 'utf8')).toBe('version two\n');

    const listing = await say(url, '/rollback');
    expect(listing).toMatch(/^1\. .* before write_file$/m);
    expect(listing).toContain('plan.md');
    const answer = await say(url, '/rollback 1');
    expect(answer).toContain('Rolled back to checkpoint 1');
    expect(answer).toContain('Restored: plan.md');
    expect(answer).toContain('Removed: extra.md');
    expect(readFileSync(join(work, 'plan.md'), 'utf8')).toBe('version one\n');
    expect(existsSync(join(work, 'extra.md'))).toBe(false);
    // Commands never reach the model.
    expect(model?.requests).toHaveLength(3);
  });
});
