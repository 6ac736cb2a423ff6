/**
 * A changed MCP tool list reaches the gateway's long-lived agents between turns: the model calls
 * the fixture server's `add_tool`, the server announces `tools/list_changed`, and the next turn's
 * request (same cached agent, same session) offers the new tool; `buildGatewayServer` keeps the
 * shared registry in step with the hub.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ScriptedServer, script, startScriptedServer } from '@hermes/testkit';
import { describe, expect, it } from 'vitest';
import {
  buildGatewayServer,
  listeningUrl,
  loadHermesConfig,
  startMcpForConfig,
} from '../src/index.ts';

const FIXTURE = fileURLToPath(new URL('../../mcp/test/fixtures/test-server.mjs', import.meta.url));
const home = () => process.env.HERMES_HOME as string;
const API_KEY = 'mcp-refresh-key-0123456789abcdef';

/** config.yaml for the scripted model, the api_server and the fixture MCP server `t`; its hub. */
async function gatewayConfig(model: ScriptedServer) {
  writeFileSync(
    join(home(), 'config.yaml'),
    `model:\n  provider: openai\n  default: m\n  base_url: ${model.baseUrl('openai-chat')}\n` +
      `platforms:\n  api_server:\n    enabled: true\n    port: 0\n    key: ${API_KEY}\n` +
      `mcp_servers:\n  t:\n    command: ${process.execPath}\n    args: [${FIXTURE}]\n` +
      // No session titles: a title request would take the next scripted answer.
      'learning:\n  titles: false\n',
  );
  const config = await loadHermesConfig({
    hermesHome: home(),
    env: { OPENAI_API_KEY: 'sk-test', PATH: process.env.PATH ?? '' },
  });
  const hub = await startMcpForConfig(config);
  if (!hub) throw new Error('the fixture MCP server did not start');
  return { config, hub };
}

describe('MCP tool-list changes in the gateway', { timeout: 90_000 }, () => {
  it('offers a tool the server added mid-session on the next turn', async () => {
    const model = await startScriptedServer(
      script()
        .toolCall('mcp_t_add_tool', { name: 'fresh' })
        .next()
        .text('added')
        .next()
        .text('second turn'),
    );
    const { config, hub } = await gatewayConfig(model);
    expect(hub.toolSpecs().map((t) => t.name)).toContain('mcp_t_add_tool');
    const server = buildGatewayServer(config, { agents: { cwd: home() }, mcp: hub });
    try {
      await server.gateway.start();
      const url = listeningUrl(server.adapters[0] as (typeof server.adapters)[number]);
      const fresh = new Promise<void>((resolve) => {
        const stop = hub.onToolsChanged(() => {
          if (hub.toolSpecs().some((t) => t.name === 'mcp_t_fresh')) {
            stop();
            resolve();
          }
        });
      });
      const ask = async (content: string) => {
        const response = await fetch(`${url}/v1/chat/completions`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${API_KEY}`,
            'content-type': 'application/json',
            'x-hermes-session-id': 'refresh-session',
          },
          body: JSON.stringify({ model: 'hermes-agent', messages: [{ role: 'user', content }] }),
        });
        expect(response.status).toBe(200);
        return JSON.stringify(await response.json());
      };
      expect(await ask('add a tool')).toContain('added');
      expect(JSON.stringify(model.requests[0]?.body)).not.toContain('mcp_t_fresh');
      await fresh;
      expect(await ask('again')).toContain('second turn');
      expect(JSON.stringify(model.requests[2]?.body)).toContain('"name":"mcp_t_fresh"');
    } finally {
      await server.close({ drainTimeoutMs: 1_000 });
      await model.close();
    }
  });
});

describe("MCP tools in the gateway's scheduled jobs", { timeout: 90_000 }, () => {
  it("a job run by the gateway's cron service can call an MCP server's tool", async () => {
    const model = await startScriptedServer(
      script().toolCall('mcp_t_echo', { message: 'from a job' }).next().text('job done'),
    );
    const { config, hub } = await gatewayConfig(model);
    const server = buildGatewayServer(config, { agents: { cwd: home() }, mcp: hub });
    try {
      const cron = server.cron;
      if (!cron) throw new Error('the gateway has no cron service');
      const now = Date.now();
      await cron.store.create(
        {
          name: 'echo job',
          prompt: 'Echo something through the MCP server.',
          schedule: { kind: 'interval', minutes: 60 },
          scheduleText: 'every 1h',
          deliver: { kind: 'local' },
          nextRunAt: now - 1_000,
        },
        now,
      );
      const [run] = await cron.scheduler.tick();
      expect(run).toMatchObject({ status: 'ok', output: 'job done' });
      expect(JSON.stringify(model.requests[0]?.body)).toContain('"name":"mcp_t_echo"');
      expect(JSON.stringify(model.requests[1]?.body)).toContain('echo: from a job');
    } finally {
      await server.close({ drainTimeoutMs: 1_000 });
      await model.close();
    }
  });
});
