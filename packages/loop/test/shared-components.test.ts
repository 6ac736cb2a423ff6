/**
 * createAgent on shared components: several agents use one session store, one registry and one
 * skills library; closing an agent leaves them open, closing the shared parts closes the store.
 */
import { LocalEnvironment } from '@hermes/environments';
import { script, startScriptedServer } from '@hermes/testkit';
import type { ToolSpec } from '@hermes/tools';
import { describe, expect, it } from 'vitest';
import { createAgent, createSharedComponents } from '../src/index.js';

type Body = { tools?: { function: { name: string } }[] };
/** A title request would take one of the scripted answers these tests count on. */
const learning = { titles: false };

describe('createAgent with deps.shared', () => {
  it('builds agents that share one store, registry and skills library', async () => {
    const server = await startScriptedServer(
      script().text('one').next().text('two').next().text('three'),
    );
    const home = process.env.HERMES_HOME ?? '';
    const shared = createSharedComponents({ hermesHome: home });
    const provider = {
      provider: 'openai',
      model: 'scripted-model',
      apiKey: 'k',
      baseUrl: server.baseUrl('openai-chat'),
    };
    const a = createAgent({ provider, hermesHome: home, cwd: home, learning }, { shared });
    const b = createAgent(
      { provider, hermesHome: home, cwd: home, platform: 'telegram', learning },
      { shared },
    );
    try {
      expect(a.registry).toBe(shared.registry);
      expect(b.registry).toBe(shared.registry);
      expect(a.skills).toBe(b.skills);
      expect(await a.agent.chat('hi a')).toBe('one');
      expect(await b.agent.chat('hi b')).toBe('two');
      expect(a.agent.sessionId).not.toBe(b.agent.sessionId);
      const sessions = await shared.store.listSessions({});
      expect(sessions.map((s) => s.source).sort()).toEqual(['cli', 'telegram']);
      const names = ((server.requests[0]?.body as Body | undefined)?.tools ?? []).map(
        (t) => t.function.name,
      );
      expect(names).toEqual(expect.arrayContaining(['session_search', 'skill_view', 'memory']));
      // Closing one agent leaves the shared store open for the other.
      await a.close();
      expect(await b.agent.chat('again')).toBe('three');
      const messages = await shared.store.getMessages(b.agent.sessionId as string);
      expect(messages.map((row) => row.message.content)).toEqual(['hi b', 'two', 'again', 'three']);
    } finally {
      await b.close();
      await shared.close();
      await server.close();
    }
    await expect(async () => shared.store.getSession('nope')).rejects.toThrow(/not open/);
  });

  it('refuses extra tools for one agent on a shared registry', async () => {
    const shared = createSharedComponents({ hermesHome: process.env.HERMES_HOME ?? '' });
    try {
      expect(() =>
        createAgent(
          { provider: { provider: 'openai', model: 'm', apiKey: 'k' } },
          {
            shared,
            tools: [
              {
                name: 'extra',
                toolset: 'extra',
                description: 'x',
                parameters: {},
                handler: () => 'x',
              },
            ],
          },
        ),
      ).toThrow(/shared registry/);
    } finally {
      await shared.close();
    }
  });

  it('serves the loop tools only when the toolsets enable them', async () => {
    const server = await startScriptedServer(script().text('a').next().text('b').next().text('c'));
    const home = process.env.HERMES_HOME ?? '';
    const provider = {
      provider: 'openai',
      model: 'scripted-model',
      apiKey: 'k',
      baseUrl: server.baseUrl('openai-chat'),
    };
    const names = (index: number) =>
      ((server.requests[index]?.body as Body | undefined)?.tools ?? []).map((t) => t.function.name);
    const loopServed = ['memory', 'session_search', 'skill_view', 'skill_manage', 'delegate_task'];
    const shared = createSharedComponents({ hermesHome: home });
    const built = [
      createAgent({ provider, hermesHome: home, cwd: home, learning }, { shared }),
      createAgent(
        { provider, hermesHome: home, cwd: home, toolsets: ['safe'], learning },
        { shared },
      ),
      createAgent(
        {
          provider,
          hermesHome: home,
          cwd: home,
          disabledToolsets: ['memory', 'delegation'],
          learning,
        },
        { shared },
      ),
    ];
    try {
      for (const [index, created] of built.entries()) await created.agent.chat(`turn ${index}`);
      expect(names(0)).toEqual(expect.arrayContaining(loopServed));
      expect(names(1)).toContain('web_extract');
      for (const name of loopServed) expect(names(1)).not.toContain(name);
      expect(names(2)).toEqual(expect.arrayContaining(['session_search', 'skill_view']));
      expect(names(2)).not.toContain('memory');
      expect(names(2)).not.toContain('delegate_task');
    } finally {
      for (const created of built) await created.close();
      await shared.close();
      await server.close();
    }
  });

  it('builds the environment at the first tool call, a real backend, and checks it up front', async () => {
    const seen: unknown[] = [];
    const probe: ToolSpec = {
      name: 'probe',
      toolset: 'probe',
      description: 'records the environment it runs in',
      parameters: {},
      handler: (_args, ctx) => {
        seen.push(ctx.environment);
        return 'ok';
      },
    };
    const server = await startScriptedServer(
      script().toolCall('probe', {}).next().toolCall('probe', {}).next().text('done'),
    );
    const home = process.env.HERMES_HOME ?? '';
    const shared = createSharedComponents({ hermesHome: home, tools: [probe] });
    const provider = {
      provider: 'openai',
      model: 'scripted-model',
      apiKey: 'k',
      baseUrl: server.baseUrl('openai-chat'),
    };
    try {
      expect(() =>
        createAgent({ provider, hermesHome: home, terminal: { backend: 'teleport' } }, { shared }),
      ).toThrow(/terminal configuration/);
      const created = createAgent(
        { provider, hermesHome: home, cwd: home, toolsets: ['probe'] },
        { shared },
      );
      expect(await created.agent.chat('probe twice')).toBe('done');
      expect(seen).toHaveLength(2);
      expect(seen[0]).toBeInstanceOf(LocalEnvironment);
      expect(seen[1]).toBe(seen[0]);
      await created.close();
      expect((seen[0] as LocalEnvironment).closed).toBe(true);
    } finally {
      await shared.close();
      await server.close();
    }
  });
});
