/**
 * An external memory provider's own tools (`memory.provider`, e.g. holographic's `fact_store`)
 * reach the model through createAgent, run in the provider once it started, follow the memory
 * toolset, and the provider is shut down when the agent closes.
 */
import { MemoryProvider } from '@hermes/memory';
import type { ToolSchema } from '@hermes/protocol';
import { script, startScriptedServer } from '@hermes/testkit';
import { describe, expect, it } from 'vitest';
import { type CreateAgentConfigInput, createAgent } from '../src/index.js';

/** A provider with one tool that records what happens to it. */
class NotebookProvider extends MemoryProvider {
  readonly name = 'notebook';
  readonly calls: string[] = [];
  readonly notes: string[] = [];
  async initialize(): Promise<void> {
    this.calls.push('initialize');
  }
  async prefetch(): Promise<string> {
    return '';
  }
  async syncTurn(): Promise<void> {}
  async shutdown(): Promise<void> {
    this.calls.push('shutdown');
  }
  override getToolSchemas(): readonly ToolSchema[] {
    return [
      {
        type: 'function',
        function: {
          name: 'note_add',
          description: 'Adds a note.',
          parameters: { type: 'object', properties: { text: { type: 'string' } } },
        },
      },
    ];
  }
  override async handleToolCall(
    name: string,
    args: Readonly<Record<string, unknown>>,
  ): Promise<string | undefined> {
    if (name !== 'note_add') return undefined;
    this.notes.push(String(args.text));
    return 'noted';
  }
}

async function run(config: Partial<CreateAgentConfigInput>) {
  const server = await startScriptedServer(
    script().toolCall('note_add', { text: 'pnpm, not npm' }).next().text('ok'),
  );
  const provider = new NotebookProvider();
  const created = createAgent(
    {
      provider: {
        provider: 'openai',
        model: 'scripted-model',
        apiKey: 'k',
        baseUrl: server.baseUrl('openai-chat'),
      },
      hermesHome: process.env.HERMES_HOME ?? '',
      cwd: process.env.HERMES_HOME ?? '',
      // No title request: it would take one of the scripted answers.
      learning: { titles: false },
      ...config,
    },
    { memoryProvider: provider },
  );
  try {
    await created.agent.runConversation('remember pnpm');
    const offered = JSON.stringify(server.requests[0]?.body);
    const answered = JSON.stringify(server.requests[1]?.body);
    await created.close();
    return { provider, offered, answered };
  } finally {
    await server.close();
  }
}

describe('external memory provider tools', () => {
  it('offers the provider tool, runs it in the started provider, and shuts it down on close', async () => {
    const { provider, offered, answered } = await run({});
    expect(offered).toContain('"name":"note_add"');
    expect(provider.notes).toEqual(['pnpm, not npm']);
    expect(answered).toContain('noted');
    expect(provider.calls).toEqual(['initialize', 'shutdown']);
  });

  it('leaves them out when the memory toolset is disabled', async () => {
    const { provider, offered } = await run({ disabledToolsets: ['memory'] });
    expect(offered).not.toContain('note_add');
    expect(provider.notes).toEqual([]);
  });
});
