/**
 * Settings of config.yaml that used to be parsed and then ignored now reach the agent built from
 * it (issue 18): `compression.*` decides when the compressor fires, `memory.*_char_limit` sizes
 * the built-in store. Real config file, real agent, scripted model.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentEvent } from '@hermes/protocol';
import { type ScriptBuilder, script, startScriptedServer } from '@hermes/testkit';
import { describe, expect, it } from 'vitest';
import { buildAgent, loadHermesConfig } from '../src/index.ts';

const home = () => process.env.HERMES_HOME as string;

/** Runs one turn of an agent built from config.yaml `extra`; resolves what `observe` collected. */
async function turnWith<T>(
  builder: ScriptBuilder,
  extra: string,
  observe: (agent: ReturnType<typeof buildAgent>['agent']) => () => T,
): Promise<{ collected: T; requests: string[] }> {
  const server = await startScriptedServer(builder);
  writeFileSync(
    join(home(), 'config.yaml'),
    `model:\n  provider: openai\n  default: scripted-model\n  base_url: ${server.baseUrl('openai-chat')}\n${extra}${/^learning:/m.test(extra) ? '' : 'learning:\n  titles: false\n'}`,
  );
  const config = await loadHermesConfig({ hermesHome: home(), env: { OPENAI_API_KEY: 'sk-test' } });
  const created = buildAgent(config, { platform: 'cli', cwd: home(), surface: 'single_query' });
  try {
    const collect = observe(created.agent);
    const result = await created.agent.runConversation('read my notes');
    expect(result.exitReason).toBe('completed');
    return { collected: collect(), requests: server.requests.map((r) => JSON.stringify(r.body)) };
  } finally {
    await created.close();
    await server.close();
  }
}

/** A tool call reporting a 150K-token prompt on a 200K window, then answers. */
const bigPrompt = () =>
  script()
    .toolCall('read_file', { path: 'notes.txt' })
    .usage({ inputTokens: 150_000 })
    .next()
    .text('summary: done')
    .times(3);

async function compressions(section: string): Promise<number> {
  const { collected } = await turnWith(bigPrompt(), section, (agent) => {
    const starts: AgentEvent[] = [];
    agent.on('compression_start', (event) => starts.push(event));
    return () => starts.length;
  });
  return collected;
}

describe('config.yaml reaches the agent', () => {
  it('compression.threshold (with compression.context_length) decides when compression fires', async () => {
    const window = '  context_length: 200000\n';
    expect(await compressions(`compression:\n  threshold: 0.5\n${window}`)).toBe(1);
    expect(await compressions(`compression:\n  threshold: 0.95\n${window}`)).toBe(0);
    expect(await compressions(`compression:\n  enabled: false\n  threshold: 0.5\n${window}`)).toBe(
      0,
    );
  });

  it('memory.user_char_limit sizes the built-in store', async () => {
    const long = 'The user prefers answers that cite the exact file and line. '.repeat(2);
    const builder = () =>
      script()
        .toolCall('memory', { target: 'user', action: 'add', content: long })
        .next()
        .text('ok');
    const limited = await turnWith(builder(), 'memory:\n  user_char_limit: 60\n', () => () => 0);
    expect(limited.requests[1]).toContain('exceed the 60-char limit');
    const roomy = await turnWith(builder(), 'memory:\n  user_char_limit: 5000\n', () => () => 0);
    expect(roomy.requests[1]).not.toContain('-char limit');
    expect(roomy.requests[1]).toContain('5,000 chars');
  });
});
