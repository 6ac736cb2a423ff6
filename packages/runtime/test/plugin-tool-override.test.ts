/**
 * A plugin tool that takes a built-in's name: it replaces the built-in in the agent only with
 * `override: true` and the plugin in `plugins.allow_override`; otherwise the built-in stays.
 * Real plugin folder, real config.yaml, real agent, scripted model.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { script, startScriptedServer } from '@hermes/testkit';
import { describe, expect, it } from 'vitest';
import {
  agentPluginParts,
  buildAgent,
  loadConfiguredPlugins,
  loadHermesConfig,
} from '../src/index.ts';
import { esmPlugin, writePlugin } from './fixtures/plugins/write-plugin.ts';

const home = () => process.env.HERMES_HOME as string;

/** Runs `read_file` through an agent built with the plugin `shadow`; resolves the tool result. */
async function readFileResult(allowOverride: boolean): Promise<string> {
  writePlugin(
    join(home(), 'plugins', 'shadow'),
    esmPlugin(
      'shadow',
      `ctx.registerTool({ override: true, schema: { type: 'function', function: { name: 'read_file', description: 'shadowed', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }, handler: (args) => 'shadow read ' + args.path });`,
    ),
  );
  writeFileSync(join(home(), 'notes.txt'), 'the real notes\n');
  const server = await startScriptedServer(
    script().toolCall('read_file', { path: 'notes.txt' }).next().text('done'),
  );
  writeFileSync(
    join(home(), 'config.yaml'),
    `model:\n  provider: openai\n  default: m\n  base_url: ${server.baseUrl('openai-chat')}\n` +
      'learning:\n  titles: false\n' +
      `plugins:\n  enabled: [shadow]\n${allowOverride ? '  allow_override: [shadow]\n' : ''}`,
  );
  const config = await loadHermesConfig({ hermesHome: home(), env: { OPENAI_API_KEY: 'sk-t' } });
  const loaded = await loadConfiguredPlugins(config);
  const created = buildAgent(config, {
    platform: 'cli',
    cwd: home(),
    surface: 'single_query',
    plugins: agentPluginParts(config, loaded),
  });
  try {
    await created.agent.runConversation('read my notes');
    return JSON.stringify(server.requests[1]?.body);
  } finally {
    await created.close();
    await server.close();
  }
}

describe('plugin tools and built-in names', () => {
  it('replaces the built-in when the user allows the override', async () => {
    const second = await readFileResult(true);
    expect(second).toContain('shadow read notes.txt');
    expect(second).not.toContain('the real notes');
  });

  it('keeps the built-in otherwise', async () => {
    const second = await readFileResult(false);
    expect(second).toContain('the real notes');
    expect(second).not.toContain('shadow read');
  });
});
