/**
 * Input and output schemas of the Hermes MCP server's tools. Inputs are strict objects: a
 * misspelt argument is an error naming it, not silently ignored. The SDK turns these into the
 * JSON Schemas clients see and validates every call against them before a handler runs.
 */
import { z } from 'zod';

/** Most sessions one `sessions_list` returns. */
export const MAX_LIST_LIMIT = 100;
/** Most messages one `session_read` page holds. */
export const MAX_READ_LIMIT = 200;
/** Most hits one `sessions_search` returns. */
export const MAX_SEARCH_LIMIT = 50;

const sessionId = z.string().trim().min(1, 'session_id must not be empty');

/** `sessions_list` arguments. */
export const SessionsListInput = z.strictObject({
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_LIST_LIMIT)
    .optional()
    .describe(`How many sessions, newest first (default 20, at most ${MAX_LIST_LIMIT}).`),
  platform: z
    .string()
    .min(1)
    .optional()
    .describe('Only sessions from this platform: cli, telegram, api_server, mcp, …'),
});

/** `session_read` arguments. */
export const SessionReadInput = z.strictObject({
  session_id: sessionId.describe('The session id, as sessions_list or sessions_search gave it.'),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Skip this many messages from the start (default 0).'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_READ_LIMIT)
    .optional()
    .describe(`Messages in this page (default 50, at most ${MAX_READ_LIMIT}).`),
});

/** `sessions_search` arguments. */
export const SessionsSearchInput = z.strictObject({
  query: z
    .string()
    .trim()
    .min(1, 'query must not be empty')
    .describe('Words to find in any message of any session (full-text search).'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_SEARCH_LIMIT)
    .optional()
    .describe(`How many hits, best first (default 10, at most ${MAX_SEARCH_LIMIT}).`),
  session_id: sessionId.optional().describe('Search only this session.'),
});

/** `agent_run` arguments. */
export const AgentRunInput = z.strictObject({
  prompt: z.string().trim().min(1, 'prompt must not be empty').describe('What to ask Hermes.'),
  session_id: sessionId
    .optional()
    .describe('Continue this session; without it the prompt starts a new session.'),
});

const time = z.string().describe('ISO 8601 time');

/** `sessions_list` result. */
export const SessionsListOutput = z.object({
  sessions: z.array(
    z.object({
      id: z.string(),
      title: z.string().nullable(),
      platform: z.string(),
      started: time,
      ended: time.nullable(),
      message_count: z.number(),
    }),
  ),
});

/** `session_read` result. */
export const SessionReadOutput = z.object({
  session_id: z.string(),
  total: z.number().describe('Messages in the whole session'),
  offset: z.number(),
  messages: z.array(
    z.object({
      id: z.number(),
      role: z.string(),
      content: z.string(),
      created: time,
      tool_calls: z.array(z.object({ name: z.string(), arguments: z.string() })).optional(),
      tool_name: z.string().optional(),
    }),
  ),
  next_offset: z.number().nullable().describe('Offset of the next page; null on the last one'),
});

/** `sessions_search` result. */
export const SessionsSearchOutput = z.object({
  hits: z.array(
    z.object({
      session_id: z.string(),
      message_id: z.number(),
      role: z.string(),
      snippet: z.string(),
      created: time,
    }),
  ),
});

/** `agent_run` result. */
export const AgentRunOutput = z.object({
  answer: z.string(),
  session_id: z.string(),
  exit_reason: z.string(),
});
