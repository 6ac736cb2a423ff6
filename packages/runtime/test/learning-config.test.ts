/**
 * `learning:` in config.yaml: snake_case keys become `createAgent`'s learning settings with the
 * defaults filled in, an absent section leaves them out, bad values fail loading, unknown keys
 * are reported (an error for `hermes config check`), and an agent built from config runs its
 * review with them.
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

const load = () => loadHermesConfig({ hermesHome: home(), env: { OPENAI_API_KEY: 'sk-main' } });

describe('learning:', () => {
  it('turns snake_case keys into the loop settings, defaults filled in', async () => {
    writeConfig(
      `${MAIN}learning:\n  memory_review_every: 4\n  skill_review_min_tool_calls: 0\n  max_iterations: 5\n  notify: true\n  titles: false\n`,
    );
    const config = await load();
    expect(config.learning).toEqual({
      enabled: true,
      memoryReviewEvery: 4,
      skillReviewMinToolCalls: 0,
      maxIterations: 5,
      maxInputChars: 40_000,
      notify: true,
      titles: false,
    });
    expect(config.warnings).toEqual([]);
  });

  it('leaves the setting out when the section is absent, and turns the review off with enabled: false', async () => {
    writeConfig(MAIN);
    expect((await load()).learning).toBeUndefined();
    writeConfig(`${MAIN}learning:\n  enabled: false\n`);
    expect((await load()).learning).toMatchObject({ enabled: false, memoryReviewEvery: 10 });
  });

  it('rejects a bad value, naming the key', async () => {
    writeConfig(`${MAIN}learning:\n  memory_review_every: -1\n`);
    await expect(load()).rejects.toThrow(/learning\.memory_review_every/);
  });

  it('reports an unknown key: a warning when loading, an error for config check', async () => {
    writeConfig(`${MAIN}learning:\n  memory_review_evry: 3\n`);
    const config = await load();
    expect(config.warnings.join('\n')).toMatch(/learning\.memory_review_evry.*unknown key/);
    const check = checkConfig(readConfigSource(home()), { OPENAI_API_KEY: 'sk-main' }, home());
    expect(check.unknownKeys.map((unknown) => unknown.path)).toContain(
      'learning.memory_review_evry',
    );
  });

  it('an agent built from config reviews on the review slot when the section says it is due', async () => {
    const main = await startScriptedServer(script().text('noted'));
    const review = await startScriptedServer(script().text('Nothing to keep.'));
    writeConfig(
      `model:\n  provider: openai\n  default: main-model\n  base_url: ${main.baseUrl('openai-chat')}\nauxiliary:\n  review:\n    provider: custom\n    model: tiny-review\n    base_url: ${review.baseUrl('openai-chat')}\nlearning:\n  memory_review_every: 1\n  titles: false\n`,
    );
    const created = buildAgent(await load(), {
      platform: 'cli',
      cwd: home(),
      surface: 'single_query',
    });
    try {
      const lines: string[] = [];
      created.learning.onReview((line) => lines.push(line));
      await created.agent.runConversation('my name is Ana');
      await created.learning.idle();
      expect(lines).toEqual(['Nothing new to keep.']);
      expect(review.requests.map((r) => (r.body as { model: string }).model)).toEqual([
        'tiny-review',
      ]);
    } finally {
      await created.close();
      await main.close();
      await review.close();
    }
  });
});
