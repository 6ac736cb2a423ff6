/**
 * Auxiliary models: a slot on its own scripted model, its fallback to the main model (refused,
 * stalled), failures counted, the compressor on the `compression` slot, and a bad slot entry.
 */
import {
  faults,
  type ScriptBuilder,
  type ScriptedServer,
  script,
  startScriptedServer,
} from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import {
  auxiliaryUsageLines,
  type CreateAgentConfigInput,
  type CreatedAgent,
  createAgent,
} from '../src/index.js';

const home = () => process.env.HERMES_HOME ?? '';
type Body = { model: string; messages: { role: string; content: string }[] };

const servers: ScriptedServer[] = [];
const agents: CreatedAgent[] = [];
afterEach(async () => {
  for (const created of agents.splice(0)) await created.close();
  for (const server of servers.splice(0)) await server.close();
});

async function serve(builder: ScriptBuilder): Promise<ScriptedServer> {
  const server = await startScriptedServer(builder);
  servers.push(server);
  return server;
}

const entry = (server: ScriptedServer, model: string) => ({
  provider: 'openai',
  model,
  apiKey: `key-${model}`,
  baseUrl: server.baseUrl('openai-chat'),
});

function build(main: ScriptedServer, extra: Partial<CreateAgentConfigInput> = {}): CreatedAgent {
  const created = createAgent({
    provider: entry(main, 'main-model'),
    hermesHome: home(),
    cwd: home(),
    // No title request: it would take one of the scripted answers.
    learning: { titles: false },
    ...extra,
  });
  agents.push(created);
  return created;
}

const ask = (created: CreatedAgent, slot: 'title' | 'approval' = 'title') =>
  created.auxiliary.for(slot).chat({
    model: 'whatever-the-caller-says',
    messages: [{ role: 'user', content: 'Name this conversation.' }],
  });
const models = (server: ScriptedServer) => server.requests.map((r) => (r.body as Body).model);
const text = (content: unknown) =>
  typeof content === 'string' ? content : JSON.stringify(content);

describe('auxiliary slots', () => {
  it('a configured slot runs on its own model, and its usage is counted per slot', async () => {
    const main = await serve(script().text('main answer'));
    const aux = await serve(
      script().text('Trip to Lisbon').usage({ inputTokens: 40, outputTokens: 4 }),
    );
    const created = build(main, { auxiliary: { title: { provider: entry(aux, 'small-model') } } });
    const response = await ask(created);
    expect(text(response.message.content)).toBe('Trip to Lisbon');
    expect(models(aux)).toEqual(['small-model']);
    expect(main.requests).toHaveLength(0);
    const usage = created.auxiliary.usage().get('title');
    expect(usage).toMatchObject({ calls: 1, fallbacks: 0, failures: 0 });
    expect(usage?.usage).toMatchObject({ inputTokens: 40, outputTokens: 4 });
    expect(created.auxiliary.usage().has('approval')).toBe(false);
  });

  it('an unconfigured slot is the main model; `model` alone is another model on the main provider', async () => {
    const main = await serve(script().text('one').next().text('two'));
    const created = build(main, { auxiliary: { approval: { model: 'judge-model' } } });
    await ask(created, 'title');
    await ask(created, 'approval');
    expect(models(main)).toEqual(['main-model', 'judge-model']);
    expect(created.auxiliary.for('title').isMain).toBe(true);
  });

  it('falls back to the main model once when the slot model refuses', async () => {
    const main = await serve(script().text('from main'));
    const aux = await serve(script().fault(faults.unauthorized()).times(5));
    const created = build(main, { auxiliary: { title: { provider: entry(aux, 'small-model') } } });
    const response = await ask(created);
    expect(text(response.message.content)).toBe('from main');
    expect(models(main)).toEqual(['main-model']);
    expect(created.auxiliary.usage().get('title')).toMatchObject({ calls: 1, fallbacks: 1 });
    expect(auxiliaryUsageLines(created.auxiliary.usage())).toEqual([
      expect.stringMatching(
        /^title: 1 call · in \d+ · out \d+ · ~\$0\.\d{4} \(1 fell back to the main model\)$/,
      ),
    ]);
  });

  it('falls back when the slot model stalls past its timeout', async () => {
    const main = await serve(script().text('from main'));
    const aux = await serve(script().fault(faults.stall()).times(5));
    const created = build(main, {
      auxiliary: { title: { provider: entry(aux, 'small-model'), timeoutSeconds: 0.3 } },
    });
    const response = await ask(created);
    expect(text(response.message.content)).toBe('from main');
    expect(aux.requests.length).toBeGreaterThanOrEqual(1);
    expect(created.auxiliary.usage().get('title')).toMatchObject({ fallbacks: 1 });
  });

  it('a failure on both models is thrown and counted', async () => {
    const main = await serve(script().fault(faults.unauthorized()).times(5));
    const aux = await serve(script().fault(faults.unauthorized()).times(5));
    const created = build(main, { auxiliary: { title: { provider: entry(aux, 'small-model') } } });
    await expect(ask(created)).rejects.toThrow();
    expect(created.auxiliary.usage().get('title')).toMatchObject({
      calls: 0,
      fallbacks: 1,
      failures: 1,
    });
  });

  it('the compressor summarizes on the compression slot', async () => {
    const main = await serve(
      script()
        .text('noted')
        .times(6)
        .next()
        .toolCall('read_file', { path: 'notes.txt' })
        .usage({ inputTokens: 150_000 })
        .next()
        .text('done'),
    );
    const aux = await serve(script().text('summary of the early conversation').times(10));
    const created = build(main, {
      contextLength: 200_000,
      compression: { threshold: 0.5, protectFirstN: 1, tailMinMessages: 2 },
      auxiliary: { compression: { provider: entry(aux, 'summary-model') } },
    });
    const long = 'x'.repeat(40_000);
    for (const topic of ['zebra', 'walrus', 'quokka', 'ibis', 'okapi', 'tapir']) {
      await created.agent.runConversation(`remember ${topic} ${long}`);
    }
    await created.agent.runConversation('read my notes');
    expect(models(aux)).toEqual(['summary-model']);
    expect(models(main).every((model) => model === 'main-model')).toBe(true);
    expect(created.auxiliary.usage().get('compression')?.calls).toBeGreaterThanOrEqual(1);
  });

  it('a malformed slot entry fails createAgent, naming the slot', () => {
    expect(() =>
      createAgent({
        provider: { provider: 'openai', model: 'm', apiKey: 'k' },
        hermesHome: home(),
        auxiliary: { title: { provider: { provider: 'openai' } } },
      }),
    ).toThrow(/auxiliary\.title/);
  });
});
