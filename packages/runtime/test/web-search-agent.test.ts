/**
 * `web.search_backend` reaches the agents: the CLI's (with and without the cronjob tool, which
 * take different build paths) and the gateway factory's shared registry. A scripted model calls
 * `web_search`; a local fake of the backend's HTTP API answers; the result reaches the model.
 */

import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ApprovalHandler } from '@hermes/approval';
import type { ApprovalDecision } from '@hermes/protocol';
import { script, startScriptedServer } from '@hermes/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildAgent, createAgentFactory, loadHermesConfig } from '../src/index.ts';

const home = () => process.env.HERMES_HOME as string;
const KEY = 'bsk-brave-key-never-shown';

interface Seen {
  readonly url: URL;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

let fake: Server;
let fakeUrl = '';
const seen: Seen[] = [];

beforeAll(async () => {
  // One fake for the three APIs: SearXNG `/search?format=json`, Brave and Tavily by path.
  fake = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', fakeUrl);
      seen.push({ url, headers: req.headers, body });
      const hit = { title: `hit for ${url.pathname}`, url: 'https://hit.example' };
      const answer =
        url.pathname === '/res/v1/web/search'
          ? { web: { results: [{ ...hit, description: 'from brave' }] } }
          : { results: [{ ...hit, content: `from ${url.pathname}` }] };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
});

afterAll(async () => {
  fake.closeAllConnections();
  await new Promise<void>((resolve) => fake.close(() => resolve()));
});

beforeEach(() => {
  seen.length = 0;
});

type Body = {
  messages: { role: string; content: string }[];
  tools?: { function: { name: string } }[];
};

/** One CLI turn in which the model searches; returns the tool message and the offered tools. */
async function searchTurn(web: string[], env: Record<string, string>, cronjob?: false) {
  const server = await startScriptedServer(
    script().toolCall('web_search', { query: 'hermes agent', limit: 3 }).next().text('found it'),
  );
  writeFileSync(
    join(home(), 'config.yaml'),
    [
      'model:',
      '  provider: openai',
      '  default: scripted-model',
      `  base_url: ${server.baseUrl('openai-chat')}`,
      'learning:\n  titles: false',
      'web:',
      ...web.map((line) => `  ${line}`),
      '',
    ].join('\n'),
  );
  const config = await loadHermesConfig({
    hermesHome: home(),
    env: { OPENAI_API_KEY: 'sk-test', ...env },
  });
  const created = buildAgent(config, {
    platform: 'cli',
    cwd: home(),
    surface: 'single_query',
    ...(cronjob === false ? { cronjob } : {}),
  });
  try {
    const result = await created.agent.runConversation('search for hermes');
    expect(result.finalResponse).toBe('found it');
    const first = server.requests[0]?.body as Body;
    const second = server.requests[1]?.body as Body;
    return {
      offered: (first.tools ?? []).map((t) => t.function.name),
      tool: second.messages.find((m) => m.role === 'tool')?.content ?? '',
    };
  } finally {
    await created.close();
    await server.close();
  }
}

describe('web.search_backend reaches the agent', () => {
  it('searxng: the CLI agent offers web_search and the fake instance answers it', async () => {
    const { offered, tool } = await searchTurn(
      ['search_backend: searxng', `searxng_url: ${fakeUrl}/searx`],
      {},
    );
    expect(offered).toContain('web_search');
    expect(seen[0]?.url.pathname).toBe('/searx/search');
    expect(seen[0]?.url.searchParams.get('q')).toBe('hermes agent');
    expect(JSON.parse(tool)).toMatchObject({
      backend: 'searxng',
      results: [{ url: 'https://hit.example', description: 'from /searx/search' }],
    });
  });

  it('brave on the agent without cronjob: the key comes from the environment, in the header only', async () => {
    const { tool } = await searchTurn(
      ['search_backend: brave', `base_url: ${fakeUrl}`],
      { BRAVE_API_KEY: KEY },
      false,
    );
    expect(seen[0]?.headers['x-subscription-token']).toBe(KEY);
    expect(seen[0]?.url.searchParams.get('count')).toBe('3');
    expect(JSON.parse(tool)).toMatchObject({
      backend: 'brave',
      results: [{ description: 'from brave' }],
    });
    expect(tool).not.toContain(KEY);
  });

  it('without search_backend the model is not offered web_search', async () => {
    const { offered, tool } = await searchTurn(['timeout_seconds: 5'], {});
    expect(offered).not.toContain('web_search');
    expect(offered).toContain('read_file');
    expect(tool).toMatch(/web_search/);
    expect(seen).toEqual([]);
  });

  it('the gateway factory puts the tavily backend into the shared registry', async () => {
    const server = await startScriptedServer(
      script().toolCall('web_search', { query: 'gateway search' }).next().text('searched'),
    );
    writeFileSync(
      join(home(), 'config.yaml'),
      [
        'model:',
        '  provider: openai',
        '  default: scripted-model',
        `  base_url: ${server.baseUrl('openai-chat')}`,
        'learning:\n  titles: false',
        'web:',
        '  search_backend: tavily',
        '  tavily_api_key_env: MY_TAVILY',
        `  base_url: ${fakeUrl}`,
      ].join('\n'),
    );
    const config = await loadHermesConfig({
      hermesHome: home(),
      env: { OPENAI_API_KEY: 'sk-test', MY_TAVILY: 'tvly-secret' },
    });
    const built = createAgentFactory(config, { cwd: home() });
    try {
      const handle = await built.factory({
        sessionKey: 'agent:default:telegram:dm:1',
        platform: 'telegram',
        userId: 'u1',
        approvalHandler: new DenyAll(),
      });
      expect(await handle.agent.chat('search from the chat')).toBe('searched');
      const second = server.requests[1]?.body as Body | undefined;
      const tool = second?.messages.find((m) => m.role === 'tool');
      expect(JSON.parse(tool?.content ?? '{}')).toMatchObject({ backend: 'tavily' });
      expect(seen[0]?.headers.authorization).toBe('Bearer tvly-secret');
      expect(JSON.parse(seen[0]?.body ?? '{}')).toEqual({
        query: 'gateway search',
        max_results: 5,
      });
    } finally {
      await built.close();
      await server.close();
    }
  });
});

/** Approval is not under test here; nothing asks. */
class DenyAll extends ApprovalHandler {
  async request(): Promise<ApprovalDecision> {
    return 'deny';
  }
}
