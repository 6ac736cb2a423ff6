/**
 * `auxiliary:` in config.yaml: each slot resolved with its key from the environment, `auto` and
 * absent slots on the main model, a keyless slot warned about and left on the main model, unknown
 * slots reported, and a configured slot's calls reaching its own (scripted) model.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { script, startScriptedServer } from '@hermes/testkit';
import { describe, expect, it } from 'vitest';
import { buildAgent, checkConfig, loadHermesConfig, readConfigSource } from '../src/index.ts';

const home = () => process.env.HERMES_HOME as string;
const MAIN = 'model:\n  provider: openai\n  default: main-model\n';

function writeConfig(text: string): void {
  writeFileSync(join(home(), 'config.yaml'), text);
}

const load = (env: Record<string, string> = {}) =>
  loadHermesConfig({ hermesHome: home(), env: { OPENAI_API_KEY: 'sk-main', ...env } });

describe('auxiliary:', () => {
  it('resolves each slot: own provider with its key, model alone, auto, timeout', async () => {
    writeConfig(
      `${MAIN}auxiliary:\n  title:\n    provider: openrouter\n    model: small/title-model\n    api_key_env: TITLE_KEY\n    timeout: 20\n  approval:\n    model: gpt-4o-mini\n  compression: auto\n`,
    );
    const config = await load({ TITLE_KEY: 'sk-title-0123456789' });
    expect(config.auxiliary).toEqual({
      title: {
        provider: {
          provider: 'openrouter',
          model: 'small/title-model',
          apiKey: 'sk-title-0123456789',
        },
        timeoutSeconds: 20,
      },
      approval: { model: 'gpt-4o-mini' },
    });
    expect(config.warnings).toEqual([]);
  });

  it('leaves a slot whose provider has no key on the main model, with a warning naming the variable', async () => {
    writeConfig(
      `${MAIN}auxiliary:\n  review:\n    provider: anthropic\n    model: claude-haiku-4-5\n`,
    );
    const config = await load();
    expect(config.auxiliary).toBeUndefined();
    expect(config.warnings.join('\n')).toMatch(
      /auxiliary\.review: no API key for anthropic \(set ANTHROPIC_API_KEY/,
    );
  });

  it('reports an unknown slot: a warning when loading, an error for config check', async () => {
    writeConfig(`${MAIN}auxiliary:\n  titel:\n    model: x\n`);
    const config = await load();
    expect(config.warnings.join('\n')).toMatch(
      /auxiliary\.titel.*unknown key.*did you mean 'title'/,
    );
    const check = checkConfig(readConfigSource(home()), { OPENAI_API_KEY: 'sk-main' }, home());
    expect(check.unknownKeys.map((unknown) => unknown.path)).toContain('auxiliary.titel');
  });

  it('a configured slot of an agent built from config calls its own model', async () => {
    const main = await startScriptedServer(script().text('main'));
    const aux = await startScriptedServer(script().text('Lisbon trip'));
    writeConfig(
      `model:\n  provider: openai\n  default: main-model\n  base_url: ${main.baseUrl('openai-chat')}\nauxiliary:\n  title:\n    provider: custom\n    model: tiny\n    base_url: ${aux.baseUrl('openai-chat')}\n`,
    );
    const created = buildAgent(await load(), {
      platform: 'cli',
      cwd: home(),
      surface: 'single_query',
    });
    try {
      const response = await created.auxiliary.for('title').chat({
        model: 'ignored',
        messages: [{ role: 'user', content: 'title?' }],
      });
      expect(response.message.content).toBe('Lisbon trip');
      expect(aux.requests.map((r) => (r.body as { model: string }).model)).toEqual(['tiny']);
      expect(main.requests).toHaveLength(0);
    } finally {
      await created.close();
      await main.close();
      await aux.close();
    }
  });
});
