/**
 * Hermes as an MCP server: past sessions to list, read and search, and the agent itself to run a
 * prompt. Built on the SDK's `McpServer`; the store and the agent come from the host
 * ({@link HermesMcpServerDeps}), so this package stays free of them.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { HermesMcpServerDeps, HermesMcpServerOptions } from './server-deps.js';
import { listedSession, searchHit, sessionPage } from './session-format.js';
import {
  AgentRunInput,
  AgentRunOutput,
  SessionReadInput,
  SessionReadOutput,
  SessionsListInput,
  SessionsListOutput,
  SessionsSearchInput,
  SessionsSearchOutput,
} from './tool-schemas.js';

/** The tools {@link createHermesMcpServer} offers, in listing order. */
export const HERMES_MCP_TOOLS = [
  'sessions_list',
  'session_read',
  'sessions_search',
  'agent_run',
] as const;

const INSTRUCTIONS =
  'Hermes is an autonomous agent with a store of past conversations. Use sessions_list, ' +
  'sessions_search and session_read to look through earlier sessions, and agent_run to give ' +
  'Hermes a task (pass session_id to continue a session). Commands that need approval are ' +
  "denied unless the Hermes user's config allows them.";

/** A result whose text is the JSON of `value`, carried as structured content too. */
function structured<T extends Record<string, unknown>>(value: T): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(value, null, 2) }],
    structuredContent: value,
  };
}

/** An error result: the client (and its model) reads `text`. */
function failure(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * Runs a tool body; a rejection becomes an error result naming the tool (and is logged), so a
 * store or agent failure never surfaces as a protocol error the client cannot show its model.
 */
async function guarded(
  tool: string,
  options: HermesMcpServerOptions,
  body: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    options.logger?.warn(`mcp serve: ${tool} failed: ${message}`);
    return failure(`${tool} failed: ${message}`);
  }
}

/**
 * A new `McpServer` offering `sessions_list`, `session_read`, `sessions_search` and `agent_run`
 * over `deps`. Every tool's arguments are validated against its zod schema (strict objects)
 * before the host is called. One server serves one connection: over HTTP, build one per client
 * session (`serveHttp` takes a factory).
 */
export function createHermesMcpServer(
  deps: HermesMcpServerDeps,
  options: HermesMcpServerOptions = {},
): McpServer {
  const server = new McpServer(
    { name: 'hermes', version: options.version ?? '0.0.0' },
    { instructions: INSTRUCTIONS },
  );
  const readOnly = { readOnlyHint: true, openWorldHint: false } as const;
  server.registerTool(
    'sessions_list',
    {
      description:
        'Recent Hermes sessions, newest first: id, title, platform, start time, messages.',
      inputSchema: SessionsListInput,
      outputSchema: SessionsListOutput,
      annotations: readOnly,
    },
    (args) =>
      guarded('sessions_list', options, async () => {
        const sessions = await deps.listSessions({
          limit: args.limit ?? 20,
          ...(args.platform ? { platform: args.platform } : {}),
        });
        return structured({ sessions: sessions.map(listedSession) });
      }),
  );
  server.registerTool(
    'session_read',
    {
      description:
        "One session's messages in order, a page at a time (offset/limit; next_offset is the next page).",
      inputSchema: SessionReadInput,
      outputSchema: SessionReadOutput,
      annotations: readOnly,
    },
    (args) =>
      guarded('session_read', options, async () => {
        const messages = await deps.readSession(args.session_id);
        if (!messages) return failure(`no session '${args.session_id}'; see sessions_list`);
        return structured(
          sessionPage(args.session_id, messages, args.offset ?? 0, args.limit ?? 50),
        );
      }),
  );
  server.registerTool(
    'sessions_search',
    {
      description: 'Full-text search over every message of every Hermes session, best hit first.',
      inputSchema: SessionsSearchInput,
      outputSchema: SessionsSearchOutput,
      annotations: readOnly,
    },
    (args) =>
      guarded('sessions_search', options, async () => {
        const hits = await deps.searchSessions(args.query, {
          limit: args.limit ?? 10,
          ...(args.session_id ? { sessionId: args.session_id } : {}),
        });
        return structured({ hits: hits.map(searchHit) });
      }),
  );
  registerAgentRun(server, deps, options);
  return server;
}

/** `agent_run`: one turn; a failed turn is an error result that still names its session. */
function registerAgentRun(
  server: McpServer,
  deps: HermesMcpServerDeps,
  options: HermesMcpServerOptions,
): void {
  server.registerTool(
    'agent_run',
    {
      description:
        'Run one prompt through the Hermes agent (tools included) in a new session, or in ' +
        'session_id, and return its answer and the session id. Commands that need approval ' +
        'are denied unless the Hermes config allows them.',
      inputSchema: AgentRunInput,
      outputSchema: AgentRunOutput,
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    },
    (args, extra) =>
      guarded('agent_run', options, async () => {
        const result = await deps.runAgent(args.prompt, args.session_id, extra.signal);
        const value = {
          answer: result.answer,
          session_id: result.sessionId,
          exit_reason: result.exitReason,
        };
        if (!result.failed) return structured(value);
        const why = result.error ? `: ${result.error}` : '';
        return {
          ...failure(`agent_run failed (${result.exitReason})${why}; session ${result.sessionId}`),
          structuredContent: value,
        };
      }),
  );
}
