/**
 * Many MCP tools on a small context window go behind the tool-search bridge (issue 19): with
 * server-everything's tools (about 1,800 tokens of schemas) taking more than a tenth of
 * `compression.context_length` (8,000 here), the model
 * is offered `tool_search` and the core tools instead of the MCP schemas, and finds and calls
 * the MCP tool through the bridge.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { script, startScriptedServer } from '@hermes/testkit';
import { describe, expect, it } from 'vitest';
import { buildAgent, loadHermesConfig, mcpAgentTools, startMcpForConfig } from '../src/index.ts';

const EVERYTHING = fileURLToPath(
  new URL('../../mcp/node_modules/.bin/mcp-server-everything', import.meta.url),
);
const home = () => process.env.HERMES_HOME as string;

async function offered(contextLength: number): Promise<{ names: string[]; second: string }> {
  const model = await startScriptedServer(
    script()
      .toolCall('tool_call', { name: 'mcp_everything_echo', arguments: { message: 'via bridge' } })
      .next()
      .text('done'),
  );
  writeFileSync(
    join(home(), 'config.yaml'),
    `model:\n  provider: openai\n  default: m\n  base_url: ${model.baseUrl('openai-chat')}\n` +
      'learning:\n  titles: false\n' +
      `compression:\n  context_length: ${contextLength}\n` +
      `mcp_servers:\n  everything:\n    command: ${EVERYTHING}\n    args: [stdio]\n`,
  );
  const config = await loadHermesConfig({
    hermesHome: home(),
    env: { OPENAI_API_KEY: 'sk-t', PATH: process.env.PATH },
  });
  const hub = await startMcpForConfig(config);
  try {
    const mcp = mcpAgentTools(hub);
    const created = buildAgent(config, {
      platform: 'cli',
      cwd: home(),
      surface: 'single_query',
      tools: mcp.tools,
      extraToolsets: mcp.toolsets,
    });
    try {
      await created.agent.runConversation('echo something');
    } finally {
      await created.close();
    }
    const first = model.requests[0]?.body as { tools?: { function: { name: string } }[] };
    return {
      names: (first.tools ?? []).map((t) => t.function.name),
      second: JSON.stringify(model.requests[1]?.body ?? null),
    };
  } finally {
    await hub?.close();
    await model.close();
  }
}

describe('MCP tools and the tool-search bridge', { timeout: 60_000 }, () => {
  it('hides the MCP schemas behind tool_search on a small window, and the bridge reaches them', async () => {
    const small = await offered(8_000);
    expect(small.names).toContain('tool_search');
    expect(small.names).not.toContain('mcp_everything_echo');
    expect(small.names).toContain('read_file'); // core tools stay
    expect(small.second).toContain('via bridge');
  });

  it('offers them directly when they fit', async () => {
    const large = await offered(1_000_000);
    expect(large.names).toContain('mcp_everything_echo');
    expect(large.names).not.toContain('tool_search');
  });
});
