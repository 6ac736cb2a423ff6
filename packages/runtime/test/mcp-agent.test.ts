/**
 * MCP servers reaching an agent built from config: `startMcpForConfig` starts nothing (and
 * imports nothing) without an enabled server; with server-everything over stdio (a real child
 * process) its tools, filtered by `tools.include`, come to `buildAgent` through `mcpAgentTools`
 * and `extraToolsets`, the scripted model calls one, and the result reaches the next request.
 * `probeMcpServers` reports a working and a broken server.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { script, startScriptedServer } from '@hermes/testkit';
import { describe, expect, it } from 'vitest';
import {
  buildAgent,
  type HermesConfig,
  loadHermesConfig,
  mcpAgentTools,
  probeMcpServers,
  startMcpForConfig,
} from '../src/index.ts';

const EVERYTHING = fileURLToPath(
  new URL('../../mcp/node_modules/.bin/mcp-server-everything', import.meta.url),
);
const home = () => process.env.HERMES_HOME as string;

async function configWith(mcp: string, baseUrl = 'http://127.0.0.1:9/v1'): Promise<HermesConfig> {
  writeFileSync(
    join(home(), 'config.yaml'),
    `model:\n  provider: openai\n  default: m\n  base_url: ${baseUrl}\nlearning:\n  titles: false\n${mcp}`,
  );
  return loadHermesConfig({
    hermesHome: home(),
    env: { OPENAI_API_KEY: 'sk-t', PATH: process.env.PATH },
  });
}

const everything = (extra = '') =>
  `mcp_servers:\n  everything:\n    command: ${EVERYTHING}\n    args: [stdio]\n${extra}`;

describe('startMcpForConfig', () => {
  it('starts no hub without an enabled server', async () => {
    expect(await startMcpForConfig(await configWith(''))).toBeUndefined();
    const disabled = await configWith(everything('    enabled: false\n'));
    expect(await startMcpForConfig(disabled)).toBeUndefined();
  });
});

describe('MCP tools in a built agent', { timeout: 60_000 }, () => {
  async function run(withToolsets: boolean) {
    const model = await startScriptedServer(
      script()
        .toolCall('mcp_everything_echo', { message: 'hi from the model' })
        .next()
        .text('done'),
    );
    const config = await configWith(
      everything('    tools:\n      include: [echo, get-env]\n'),
      model.baseUrl('openai-chat'),
    );
    const hub = await startMcpForConfig(config);
    try {
      const mcp = mcpAgentTools(hub);
      const created = buildAgent(config, {
        platform: 'cli',
        cwd: home(),
        surface: 'single_query',
        tools: mcp.tools,
        ...(withToolsets ? { extraToolsets: mcp.toolsets } : {}),
      });
      try {
        await created.agent.runConversation('echo something');
      } finally {
        await created.close();
      }
      return { mcp, requests: model.requests.map((r) => JSON.stringify(r.body)) };
    } finally {
      await hub?.close();
      await model.close();
    }
  }

  it('offers the included tools with their toolset enabled, and the result reaches the model', async () => {
    const { mcp, requests } = await run(true);
    expect(mcp.toolsets).toEqual(['mcp-everything']);
    expect(mcp.tools.map((t) => t.name)).toContain('mcp_everything_echo');
    expect(requests[0]).toContain('"name":"mcp_everything_echo"');
    expect(requests[0]).toContain('"name":"mcp_everything_get-env"');
    expect(requests[0]).not.toContain('mcp_everything_get-sum');
    expect(requests[1]).toContain('Echo: hi from the model');
  });

  it('does not offer them when the toolset is not enabled', async () => {
    const { requests } = await run(false);
    expect(requests[0]).not.toContain('mcp_everything_echo');
  });
});

describe('an image an MCP tool returns', { timeout: 60_000 }, () => {
  it('reaches an Anthropic model as an image block inside the tool_result, after the text', async () => {
    const model = await startScriptedServer(
      script().toolCall('mcp_everything_get-tiny-image', {}).next().text('a tiny image'),
    );
    writeFileSync(
      join(home(), 'config.yaml'),
      `model:\n  provider: anthropic\n  default: claude-x\n  base_url: ${model.baseUrl('anthropic-messages')}\nlearning:\n  titles: false\n${everything('    tools:\n      include: [get-tiny-image]\n')}`,
    );
    const config = await loadHermesConfig({
      hermesHome: home(),
      env: { ANTHROPIC_API_KEY: 'sk-ant-t', PATH: process.env.PATH },
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
        await created.agent.runConversation('show me the tiny image');
      } finally {
        await created.close();
      }
      const second = model.requests[1]?.body as {
        messages: { role: string; content: unknown }[];
      };
      const results = second.messages
        .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
        .filter(
          (b): b is { type: string; content: { type: string; source?: unknown }[] } =>
            (b as { type?: string }).type === 'tool_result',
        );
      expect(results).toHaveLength(1);
      const blocks = results[0]?.content ?? [];
      expect(blocks[0]?.type).toBe('text');
      const image = blocks.find((b) => b.type === 'image');
      expect(image?.source).toMatchObject({ type: 'base64', media_type: 'image/png' });
      const source = image?.source as { data: string } | undefined;
      expect(source?.data.length).toBeGreaterThan(20);
    } finally {
      await hub?.close();
      await model.close();
    }
  });
});

describe('probeMcpServers', { timeout: 60_000 }, () => {
  it('lists the tools of a working server and the error of a broken one', async () => {
    const config = await configWith(
      `${everything('    tools:\n      exclude: [get-env]\n')}  broken:\n    command: ${join(home(), 'no-such-server')}\n    connect_timeout: 10\n  off:\n    command: ${EVERYTHING}\n    enabled: false\n`,
    );
    const probes = await probeMcpServers(config);
    expect(probes.map((p) => p.name)).toEqual(['everything', 'broken']);
    const [good, bad] = probes;
    expect(good?.ok).toBe(true);
    expect(good?.tools.map((t) => t.name)).toContain('mcp_everything_echo');
    expect(good?.tools.map((t) => t.name)).not.toContain('mcp_everything_get-env');
    expect(good?.connectMs).toBeGreaterThan(0);
    expect(bad?.ok).toBe(false);
    expect(bad?.error).toBeTruthy();
    // Asked for by name, a disabled server is probed all the same.
    const [off] = await probeMcpServers(config, { names: ['off'] });
    expect(off).toMatchObject({ name: 'off', ok: true });
  });
});
