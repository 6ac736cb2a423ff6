/** createAgent settings that config.yaml must reach: compression, memory limits, engine factory. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ContextEngine } from '@hermes/context-engine';
import type { AgentEvent } from '@hermes/protocol';
import { faults, type ScriptBuilder, script, startScriptedServer } from '@hermes/testkit';
import { describe, expect, it } from 'vitest';
import { type CreateAgentConfigInput, type CreateAgentDeps, createAgent } from '../src/index.js';
import { KeepLastEngine } from './support/harness.js';

type Body = { messages: { role: string; content: string }[] };
const home = () => process.env.HERMES_HOME ?? '';

async function withAgent<T>(
  builder: ScriptBuilder,
  config: Partial<CreateAgentConfigInput>,
  deps: CreateAgentDeps,
  body: (agent: ReturnType<typeof createAgent>['agent'], requests: () => Body[]) => Promise<T>,
): Promise<T> {
  const server = await startScriptedServer(builder);
  const created = createAgent(
    {
      provider: {
        provider: 'openai',
        model: 'scripted-model',
        apiKey: 'k',
        baseUrl: server.baseUrl('openai-chat'),
      },
      hermesHome: home(),
      cwd: home(),
      // No title request: it would take one of the scripted answers.
      learning: { titles: false },
      ...config,
    },
    deps,
  );
  try {
    return await body(created.agent, () => server.requests.map((r) => r.body as Body));
  } finally {
    await created.close();
    await server.close();
  }
}

/** A tool call reporting a 150K-token prompt on a 200K window, then an answer. */
const bigPrompt = () =>
  script()
    .toolCall('read_file', { path: 'notes.txt' })
    .usage({ inputTokens: 150_000 })
    .next()
    .text('summary: done')
    .times(3);

async function compressionStarts(compression: CreateAgentConfigInput['compression']) {
  return withAgent(
    bigPrompt(),
    { contextLength: 200_000, ...(compression ? { compression } : {}) },
    {},
    async (agent) => {
      const starts: AgentEvent[] = [];
      agent.on('compression_start', (e) => starts.push(e));
      const result = await agent.runConversation('read my notes');
      expect(result.exitReason).toBe('completed');
      return starts;
    },
  );
}

describe('createAgent compression settings', () => {
  it('compression.threshold decides when compression fires', async () => {
    expect(await compressionStarts({ threshold: 0.5 })).toHaveLength(1); // 150K ≥ 100K
    expect(await compressionStarts({ threshold: 0.95 })).toHaveLength(0); // 150K < 190K
  });

  it('enabled: false never compresses automatically', async () => {
    expect(await compressionStarts({ enabled: false, threshold: 0.5 })).toHaveLength(0);
  });

  it('enabled: false still compresses to recover from a context-overflow error', async () => {
    const triggers = await withAgent(
      script().fault(faults.contextLength(200_000)).next().text('recovered'),
      { contextLength: 200_000, compression: { enabled: false } },
      {},
      async (agent) => {
        const seen: string[] = [];
        agent.on('compression_start', (e) => seen.push(e.trigger));
        await agent.runConversation('a question');
        return seen;
      },
    );
    expect(triggers).toEqual(['overflow']);
  });

  it('rejects a threshold outside (0, 1] and negative counts', () => {
    const provider = { provider: 'openai', model: 'm', apiKey: 'k' };
    expect(() => createAgent({ provider, compression: { threshold: 1.5 } })).toThrow(/threshold/);
    expect(() => createAgent({ provider, compression: { protectFirstN: -1 } })).toThrow(
      /protectFirstN/,
    );
  });
});

describe('createAgent memory limits', () => {
  it('a memory add over the configured limit is refused', async () => {
    const long = 'The user prefers answers that cite the exact file and line. '.repeat(2);
    await withAgent(
      script()
        .toolCall('memory', { target: 'user', action: 'add', content: long })
        .next()
        .text('ok'),
      { memoryLimits: { userCharLimit: 60 } },
      {},
      async (agent, requests) => {
        await agent.runConversation('remember how I like answers');
        const tool = requests()[1]?.messages.find((m) => m.role === 'tool')?.content ?? '';
        expect(tool).toContain('exceed the 60-char limit');
        let stored = '';
        try {
          stored = readFileSync(join(home(), 'memories', 'USER.md'), 'utf8');
        } catch {
          // never written: the add was refused
        }
        expect(stored).not.toContain('exact file and line');
      },
    );
  });
});

describe('createAgent context engine factory', () => {
  it('replaces the default compressor for the agent and its delegate children', async () => {
    const inits: unknown[] = [];
    const engines: ContextEngine[] = [];
    await withAgent(
      script()
        .toolCall('delegate_task', { goal: 'child goal' })
        .match({ lastUserIncludes: 'parent' })
        .next()
        .text('child done')
        .match({ lastUserIncludes: 'child goal' })
        .next()
        .text('parent done')
        .match({ lastUserIncludes: 'parent' }),
      { contextLength: 100_000 },
      {
        contextEngine: (init) => {
          inits.push(init);
          const engine = new KeepLastEngine();
          engines.push(engine);
          return engine;
        },
      },
      async (agent) => {
        expect(inits).toEqual([
          { contextLength: 100_000, model: 'scripted-model', hermesHome: home() },
        ]);
        await agent.runConversation('parent task');
        expect(inits).toHaveLength(2); // the child's own engine
        expect((await agent.contextStatus()).contextLength).toBeUndefined(); // KeepLastEngine has none
      },
    );
  });
});
