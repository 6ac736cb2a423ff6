import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryProvider } from '@hermes/memory';
import { within } from '@hermes/protocol/testing';
import { script, startScriptedServer } from '@hermes/testkit';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../src/index.js';

class TeaMemory extends MemoryProvider {
  readonly name = 'tea';
  queries: string[] = [];
  synced: string[] = [];
  #onSync: () => void = () => undefined;
  /** Resolves at the first `syncTurn`, which the agent starts after the turn without awaiting it. */
  readonly firstSync = new Promise<void>((resolve) => {
    this.#onSync = resolve;
  });
  async initialize(): Promise<void> {}
  async prefetch(query: string): Promise<string> {
    this.queries.push(query);
    return '- The user likes green tea.';
  }
  async syncTurn(turn: { userMessage: string }): Promise<void> {
    this.synced.push(turn.userMessage);
    this.#onSync();
  }
  async shutdown(): Promise<void> {}
}

type Body = {
  messages: { role: string; content: string }[];
  tools?: { function: { name: string } }[];
};

describe('createAgent', () => {
  it('wires memory (snapshot, recall, tool), skills, session_search and the core tools', async () => {
    const home = process.env.HERMES_HOME ?? '';
    mkdirSync(join(home, 'memories'), { recursive: true });
    writeFileSync(join(home, 'memories', 'MEMORY.md'), 'The project uses pnpm.');
    const server = await startScriptedServer(
      script()
        .toolCall('memory', { target: 'user', action: 'add', content: 'Prefers short answers.' })
        .next()
        .text('Noted.'),
    );
    const memory = new TeaMemory();
    const { agent, close } = createAgent(
      {
        provider: {
          provider: 'openai',
          model: 'scripted-model',
          apiKey: 'k',
          baseUrl: server.baseUrl('openai-chat'),
        },
        hermesHome: home,
        cwd: home,
        // No title request: it would take one of the scripted answers.
        learning: { titles: false },
      },
      { memoryProvider: memory },
    );
    try {
      const result = await agent.runConversation('What should I drink while coding?');
      expect(result.finalResponse).toBe('Noted.');
      const [first, second] = server.requests.map((r) => r.body as Body);
      const system = first?.messages[0]?.content ?? '';
      expect(system).toContain('The project uses pnpm.');
      expect(system).toContain('MEMORY (your personal notes)');
      expect(second?.messages[0]?.content).toBe(system); // frozen snapshot: the write did not change it
      const user = first?.messages.find((m) => m.role === 'user')?.content ?? '';
      expect(user).toContain('<memory-context>');
      expect(user).toContain('green tea');
      const names = (first?.tools ?? []).map((t) => t.function.name);
      for (const name of [
        'terminal',
        'read_file',
        'memory',
        'session_search',
        'skill_view',
        'delegate_task',
      ]) {
        expect(names).toContain(name);
      }
      expect(readFileSync(join(home, 'memories', 'USER.md'), 'utf8')).toContain(
        'Prefers short answers.',
      );
      const stored = await (await import('@hermes/state'))
        .openSessionStore({ hermesHome: home })
        .getMessages(result.sessionId);
      expect(stored[0]?.message.content).toBe('What should I drink while coding?');
      expect(memory.queries).toEqual(['What should I drink while coding?']);
      await within(memory.firstSync, 15_000, 'the memory sync after the turn');
      expect(memory.synced).toEqual(['What should I drink while coding?']);
    } finally {
      await close();
      await server.close();
    }
  });
});
