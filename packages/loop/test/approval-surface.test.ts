/**
 * createAgent's terminal tool asks the approver on the agent's own surface (`approvalSurface`,
 * `single_query` for a headless agent, `subagent` for delegated children), so the per-surface
 * policies in config.yaml apply.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { script, startScriptedServer } from '@hermes/testkit';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../src/index.js';

type Body = { messages: { role: string; content: string }[] };

describe('the approval surface of createAgent tools', () => {
  it('approvals.single_query_mode: approve lets a headless agent run a flagged command', async () => {
    const home = process.env.HERMES_HOME ?? '';
    writeFileSync(join(home, 'config.yaml'), 'approvals:\n  single_query_mode: approve\n');
    mkdirSync(join(home, 'build', 'out'), { recursive: true });
    const server = await startScriptedServer(
      script().toolCall('terminal', { command: 'rm -rf build' }).next().text('cleaned'),
    );
    const { agent, close } = createAgent({
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
    });
    try {
      await agent.runConversation('clean the build folder');
      const tool = (server.requests[1]?.body as Body | undefined)?.messages.find(
        (m) => m.role === 'tool',
      );
      expect(tool?.content).not.toContain('BLOCKED');
      expect(existsSync(join(home, 'build'))).toBe(false);
    } finally {
      await close();
      await server.close();
    }
  });
});
