/**
 * `AgentOptions.origin` (the chat a gateway session talks to) reaches every tool call's
 * `ToolContext.origin`, so a tool such as `cronjob` can record where a job came from; an agent
 * without one gives its tools none.
 */

import { script, startScriptedServer } from '@hermes/testkit';
import type { ToolContext, ToolOrigin } from '@hermes/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../src/index.js';

async function originSeen(
  origin: ToolOrigin | undefined,
): Promise<ToolContext['origin'] | 'unset'> {
  const home = process.env.HERMES_HOME ?? '';
  const server = await startScriptedServer(script().toolCall('where_am_i', {}).next().text('done'));
  let seen: ToolContext['origin'] | 'unset' = 'unset';
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
      toolsets: ['probe'],
    },
    {
      tools: [
        {
          name: 'where_am_i',
          toolset: 'probe',
          description: 'Says which chat the session talks to.',
          parameters: z.object({}),
          handler: (_args, ctx) => {
            seen = ctx.origin;
            return 'ok';
          },
        },
      ],
      ...(origin ? { overrides: { origin } } : {}),
    },
  );
  try {
    const result = await agent.runConversation('where are we?');
    expect(result.finalResponse).toBe('done');
  } finally {
    await close();
    await server.close();
  }
  return seen;
}

describe('ToolContext.origin', () => {
  it('is the agent’s origin in every tool call', async () => {
    const origin = { platform: 'telegram', chatId: '-100123', threadId: '7' };
    expect(await originSeen(origin)).toEqual(origin);
  });

  it('is absent when the agent has none', async () => {
    expect(await originSeen(undefined)).toBeUndefined();
  });
});
