import { ContextCompressor } from '@hermes/context-engine';
import { LocalEnvironment } from '@hermes/environments';
import { script } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../src/index.js';
import { type Harness, startHarness } from './support/harness.js';
import { TestToolbox } from './support/test-toolbox.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('the real ContextCompressor inside the loop', () => {
  it('a failing summarizer falls back, keeps every user message, and the archived rows stay searchable', async () => {
    harness = await startHarness(script().text('answer').times(40), {
      toolbox: new TestToolbox({}),
      environment: new LocalEnvironment({ loginShellEnv: false }),
    });
    const engine = new ContextCompressor({
      contextLength: 64_000,
      summarizer: () => Promise.reject(new Error('summarizer down')),
    });
    const agent = new Agent({
      provider: harness.provider,
      model: 'scripted-model',
      tools: new TestToolbox({}),
      sessionStore: harness.store,
      contextEngine: engine,
      environment: new LocalEnvironment({ loginShellEnv: false }),
      hermesHome: process.env.HERMES_HOME ?? '',
      cwd: process.env.HERMES_HOME ?? '',
    });
    const long = 'x'.repeat(30_000);
    const prompts = [
      'zebra',
      'walrus',
      'quokka',
      'ibis',
      'okapi',
      'tapir',
      'marmot',
      'gecko',
      'lemur',
      'heron',
    ];
    let sessionId = '';
    for (const [i, topic] of prompts.entries()) {
      const result = await agent.runConversation(`${i}: please remember ${topic} ${long}`);
      sessionId = result.sessionId;
    }
    const archived = (await harness.store.getMessages(sessionId, { includeInactive: true })).filter(
      (row) => row.compacted,
    );
    expect(archived.length).toBeGreaterThan(0);
    const active = await harness.store.getMessages(sessionId);
    const activeText = JSON.stringify(active.map((r) => r.message.content));
    for (const topic of prompts) expect(activeText).toContain(topic);
    const hits = await harness.store.search('walrus');
    expect(hits.some((hit) => hit.sessionId === sessionId)).toBe(true);
  });
});
