/**
 * `vision_analyze` on the `vision` auxiliary slot from config.yaml: through buildAgent (the CLI's
 * agent, whose shared tools use the agent's own slots) and through the gateway's agent factory
 * (shared tools on the host's slots).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApprovalHandler } from '@hermes/approval';
import type { ApprovalDecision } from '@hermes/protocol';
import { type ScriptedServer, script, startScriptedServer } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { buildAgent, createAgentFactory, loadHermesConfig } from '../src/index.ts';

const home = () => process.env.HERMES_HOME as string;
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
type Body = { model: string; messages: { role: string; content: unknown }[] };

/** Nobody approves anything (no command is run here). */
class Denier extends ApprovalHandler {
  async request(): Promise<ApprovalDecision> {
    return 'deny';
  }
}

const servers: ScriptedServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function setUp() {
  writeFileSync(join(home(), 'chart.png'), PNG);
  const main = await startScriptedServer(
    script()
      .toolCall('vision_analyze', { image_url: join(home(), 'chart.png'), question: 'What is it?' })
      .next()
      .text('A chart.'),
  );
  const vision = await startScriptedServer(script().text('A one-pixel chart.'));
  servers.push(main, vision);
  writeFileSync(
    join(home(), 'config.yaml'),
    [
      'model:',
      '  provider: openai',
      '  default: main-model',
      `  base_url: ${main.baseUrl('openai-chat')}`,
      'learning:',
      '  enabled: false',
      '  titles: false',
      'auxiliary:',
      '  vision:',
      '    provider: custom',
      '    model: eyes',
      `    base_url: ${vision.baseUrl('openai-chat')}`,
      '',
    ].join('\n'),
  );
  const config = await loadHermesConfig({ hermesHome: home(), env: { OPENAI_API_KEY: 'sk-main' } });
  return { main, vision, config };
}

function expectVisionCall(main: ScriptedServer, vision: ScriptedServer): void {
  expect((vision.requests[0]?.body as Body | undefined)?.model).toBe('eyes');
  expect(JSON.stringify((vision.requests[0]?.body as Body | undefined)?.messages)).toContain(
    'data:image/png;base64,',
  );
  const tool = (main.requests[1]?.body as Body | undefined)?.messages.find(
    (m) => m.role === 'tool',
  );
  expect(JSON.stringify(tool)).toContain('A one-pixel chart.');
}

describe('vision_analyze on the vision slot', () => {
  it("buildAgent: the CLI's agent asks its own vision slot", async () => {
    const { main, vision, config } = await setUp();
    const created = buildAgent(config, { platform: 'cli', cwd: home(), surface: 'single_query' });
    try {
      expect((await created.agent.runConversation('look')).finalResponse).toBe('A chart.');
    } finally {
      await created.close();
    }
    expectVisionCall(main, vision);
  });

  it("the gateway's agents share vision_analyze on the host's vision slot", async () => {
    const { main, vision, config } = await setUp();
    const built = createAgentFactory(config, { cwd: home() });
    try {
      const handle = await built.factory({
        sessionKey: 'agent:default:api_server:dm:u1',
        platform: 'api_server',
        userId: 'u1',
        approvalHandler: new Denier(),
      });
      expect(await handle.agent.chat('look')).toBe('A chart.');
    } finally {
      await built.close();
    }
    expectVisionCall(main, vision);
  });
});
