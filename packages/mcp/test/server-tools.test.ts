/**
 * The Hermes MCP server's four tools through the official SDK client, over the SDK's in-memory
 * transport pair. The host functions are an in-memory implementation of the
 * `HermesMcpServerDeps` seam that records what it was asked.
 */
import type { ChatMessage } from '@hermes/protocol';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type AgentRunResult,
  createHermesMcpServer,
  HERMES_MCP_TOOLS,
  type HermesMcpServerDeps,
  type SessionMessage,
  type SessionSummary,
} from '../src/server/index.ts';
import { MAX_MESSAGE_CHARS } from '../src/server/session-format.ts';

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);

/** Sessions and messages in memory; records every call. */
class MemoryDeps implements HermesMcpServerDeps {
  readonly calls: string[] = [];
  readonly sessions: SessionSummary[] = [
    {
      id: 's-new',
      title: 'newest',
      platform: 'mcp',
      startedAt: T0 + 1000,
      endedAt: null,
      messageCount: 2,
    },
    {
      id: 's-old',
      title: null,
      platform: 'cli',
      startedAt: T0,
      endedAt: T0 + 500,
      messageCount: 5,
    },
  ];
  readonly messages = new Map<string, SessionMessage[]>();
  runAgentImpl: (prompt: string, id?: string, signal?: AbortSignal) => Promise<AgentRunResult> =
    async (prompt, id) => ({
      answer: `echo: ${prompt}`,
      sessionId: id ?? 's-made',
      exitReason: 'completed',
    });

  async listSessions(options: { limit: number; platform?: string }) {
    this.calls.push(`list ${JSON.stringify(options)}`);
    return this.sessions
      .filter((s) => options.platform === undefined || s.platform === options.platform)
      .slice(0, options.limit);
  }
  async readSession(id: string) {
    this.calls.push(`read ${id}`);
    return this.messages.get(id);
  }
  async searchSessions(query: string, options: { limit: number; sessionId?: string }) {
    this.calls.push(`search ${query} ${JSON.stringify(options)}`);
    return [
      {
        sessionId: 's-old',
        messageId: 3,
        role: 'assistant' as const,
        snippet: `>>${query}<<`,
        createdAt: T0,
      },
    ];
  }
  runAgent(prompt: string, id?: string, signal?: AbortSignal) {
    this.calls.push(`run ${prompt} ${id ?? '-'}`);
    return this.runAgentImpl(prompt, id, signal);
  }
}

function stored(id: number, message: ChatMessage): SessionMessage {
  return { id, createdAt: T0 + id, message };
}

let client: Client | undefined;

afterEach(async () => {
  await client?.close();
  client = undefined;
});

async function connect(deps: HermesMcpServerDeps, warnings: string[] = []): Promise<Client> {
  const server = createHermesMcpServer(deps, {
    version: '1.2.3',
    logger: { warn: (m) => warnings.push(m) },
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: 'test', version: '0' });
  await client.connect(clientSide);
  return client;
}

async function call(c: Client, name: string, args: Record<string, unknown>) {
  return (await c.callTool({ name, arguments: args })) as CallToolResult;
}

function text(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

describe('createHermesMcpServer', () => {
  it('offers the four tools with strict input schemas and announces itself', async () => {
    const c = await connect(new MemoryDeps());
    expect(c.getServerVersion()).toMatchObject({ name: 'hermes', version: '1.2.3' });
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name)).toEqual([...HERMES_MCP_TOOLS]);
    const run = tools.find((t) => t.name === 'agent_run');
    expect(run?.inputSchema).toMatchObject({ required: ['prompt'], additionalProperties: false });
    expect(run?.annotations?.readOnlyHint).toBe(false);
    expect(tools.find((t) => t.name === 'sessions_list')?.annotations?.readOnlyHint).toBe(true);
  });

  it('sessions_list returns the sessions with ISO times and passes limit and platform on', async () => {
    const deps = new MemoryDeps();
    const c = await connect(deps);
    const all = await call(c, 'sessions_list', {});
    expect(all.isError).toBeFalsy();
    expect(all.structuredContent).toEqual({
      sessions: [
        {
          id: 's-new',
          title: 'newest',
          platform: 'mcp',
          started: '2026-01-02T03:04:06.000Z',
          ended: null,
          message_count: 2,
        },
        {
          id: 's-old',
          title: null,
          platform: 'cli',
          started: '2026-01-02T03:04:05.000Z',
          ended: '2026-01-02T03:04:05.500Z',
          message_count: 5,
        },
      ],
    });
    expect(JSON.parse(text(all))).toEqual(all.structuredContent);
    const cli = await call(c, 'sessions_list', { limit: 5, platform: 'cli' });
    expect((cli.structuredContent as { sessions: unknown[] }).sessions).toHaveLength(1);
    expect(deps.calls).toEqual(['list {"limit":20}', 'list {"limit":5,"platform":"cli"}']);
  });

  it('session_read pages through a session and renders tool calls, tool names and images as text', async () => {
    const deps = new MemoryDeps();
    deps.messages.set('s-old', [
      stored(1, {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
        ],
      }),
      stored(2, {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'c1',
            type: 'function',
            function: { name: 'read_file', arguments: '{"path":"a"}' },
          },
        ],
      }),
      stored(3, {
        role: 'tool',
        content: 'x'.repeat(MAX_MESSAGE_CHARS + 7),
        tool_call_id: 'c1',
        name: 'read_file',
      }),
      stored(4, { role: 'assistant', content: 'done' }),
    ]);
    const c = await connect(deps);
    const first = (await call(c, 'session_read', { session_id: 's-old', limit: 2 }))
      .structuredContent;
    expect(first).toMatchObject({ session_id: 's-old', total: 4, offset: 0, next_offset: 2 });
    const [user, assistant] = (first as { messages: Record<string, unknown>[] }).messages;
    expect(user).toEqual({
      id: 1,
      role: 'user',
      content: 'look\n[image image/png, inline]',
      created: new Date(T0 + 1).toISOString(),
    });
    expect(user?.content).not.toContain('AAAA');
    expect(assistant).toMatchObject({
      content: '',
      tool_calls: [{ name: 'read_file', arguments: '{"path":"a"}' }],
    });
    const second = (await call(c, 'session_read', { session_id: 's-old', offset: 2, limit: 2 }))
      .structuredContent as {
      messages: { content: string; tool_name?: string }[];
      next_offset: number | null;
    };
    expect(second.next_offset).toBeNull();
    expect(second.messages[0]?.tool_name).toBe('read_file');
    expect(second.messages[0]?.content).toMatch(/\n\[… 7 more characters not shown\]$/);
    expect(second.messages[1]?.content).toBe('done');
  });

  it('session_read of an unknown session is an error result naming it', async () => {
    const c = await connect(new MemoryDeps());
    const result = await call(c, 'session_read', { session_id: 'nope' });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("no session 'nope'");
  });

  it('sessions_search passes query, limit and session on and returns the hits', async () => {
    const deps = new MemoryDeps();
    const c = await connect(deps);
    const result = await call(c, 'sessions_search', {
      query: 'kubernetes',
      limit: 3,
      session_id: 's-old',
    });
    expect(result.structuredContent).toEqual({
      hits: [
        {
          session_id: 's-old',
          message_id: 3,
          role: 'assistant',
          snippet: '>>kubernetes<<',
          created: new Date(T0).toISOString(),
        },
      ],
    });
    expect(deps.calls).toEqual(['search kubernetes {"limit":3,"sessionId":"s-old"}']);
  });

  it('agent_run returns the answer and the session id, new or continued', async () => {
    const deps = new MemoryDeps();
    const c = await connect(deps);
    const fresh = await call(c, 'agent_run', { prompt: 'hi' });
    expect(fresh.structuredContent).toEqual({
      answer: 'echo: hi',
      session_id: 's-made',
      exit_reason: 'completed',
    });
    const again = await call(c, 'agent_run', { prompt: 'more', session_id: 's-old' });
    expect(again.structuredContent).toMatchObject({ session_id: 's-old' });
    expect(deps.calls).toEqual(['run hi -', 'run more s-old']);
  });

  it('a failed turn or a host error is an error result; the failure is logged', async () => {
    const deps = new MemoryDeps();
    const warnings: string[] = [];
    const c = await connect(deps, warnings);
    deps.runAgentImpl = async () => ({
      answer: '',
      sessionId: 's9',
      exitReason: 'error',
      failed: true,
      error: 'model down',
    });
    const failed = await call(c, 'agent_run', { prompt: 'x' });
    expect(failed.isError).toBe(true);
    expect(text(failed)).toBe('agent_run failed (error): model down; session s9');
    deps.runAgentImpl = () => Promise.reject(new Error("no session 'zz'"));
    const thrown = await call(c, 'agent_run', { prompt: 'x', session_id: 'zz' });
    expect(thrown.isError).toBe(true);
    expect(text(thrown)).toBe("agent_run failed: no session 'zz'");
    expect(warnings).toEqual(["mcp serve: agent_run failed: no session 'zz'"]);
  });

  it('rejects bad arguments before calling the host', async () => {
    const deps = new MemoryDeps();
    const c = await connect(deps);
    for (const [name, args, word] of [
      ['agent_run', { prompt: '  ' }, 'prompt'],
      ['agent_run', { prompt: 'x', sesion_id: 'a' }, 'sesion_id'],
      ['sessions_list', { limit: 0 }, 'limit'],
      ['session_read', { session_id: 'a', limit: 201 }, 'limit'],
      ['sessions_search', {}, 'query'],
    ] as const) {
      const result = await call(c, name, args);
      expect(result.isError, name).toBe(true);
      expect(text(result)).toContain(word);
    }
    expect(deps.calls).toEqual([]);
  });

  it("a client's cancellation aborts the running agent_run", async () => {
    const deps = new MemoryDeps();
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const aborted = new Promise<boolean>((resolve) => {
      deps.runAgentImpl = (_prompt, _id, signal) => {
        signal?.addEventListener('abort', () => resolve(true));
        started();
        return new Promise(() => {});
      };
    });
    const c = await connect(deps);
    const controller = new AbortController();
    const request = c.callTool({ name: 'agent_run', arguments: { prompt: 'long' } }, undefined, {
      signal: controller.signal,
    });
    await running;
    controller.abort('stop');
    await expect(request).rejects.toThrow();
    expect(await aborted).toBe(true);
  });
});
