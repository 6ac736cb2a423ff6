/**
 * `session_search`: the agent's procedural memory over past sessions — discover sessions by
 * query, scroll around a message, read a whole session, or browse recent ones. A thin tool over
 * `@hermes/state`'s search modes.
 */
import {
  browseRecentSessions,
  discoverSessions,
  readSession,
  type SessionStore,
  SqliteSessionStore,
  scrollSession,
} from '@hermes/state';
import type { ToolSpec } from '@hermes/tools';
import { z } from 'zod';

/** Arguments of `session_search`. */
export const SessionSearchArgsSchema = z.strictObject({
  mode: z
    .enum(['search', 'scroll', 'read', 'recent'])
    .default('search')
    .describe(
      'search: find sessions by words; scroll: messages around one; read: a whole session; recent: latest sessions',
    ),
  query: z.string().optional().describe('Words to find (search mode)'),
  session_id: z.string().optional().describe('Session to scroll or read'),
  message_id: z.number().int().positive().optional().describe('Anchor message id (scroll mode)'),
  window: z.number().int().min(1).max(50).default(5).describe('Messages on each side (scroll)'),
  limit: z.number().int().min(1).max(20).default(3).describe('Sessions to return (search, recent)'),
});

type Args = z.output<typeof SessionSearchArgsSchema>;

/** Builds the tool over `store` (full modes on SQLite; plain search on other stores). */
export function createSessionSearchTool(store: SessionStore): ToolSpec<Args> {
  return {
    name: 'session_search',
    toolset: 'session_search',
    description:
      'Search past conversations (including compressed history) for how something was done before, ' +
      'what the user decided, or details that were summarized away. Start with mode "search", then ' +
      'scroll or read a session it found.',
    parameters: SessionSearchArgsSchema,
    parallelSafe: true,
    emoji: '🔎',
    handler: async (args) => JSON.stringify(await run(store, args), null, 1),
  };
}

async function run(store: SessionStore, args: Args): Promise<unknown> {
  const sqlite = store instanceof SqliteSessionStore ? store : undefined;
  switch (args.mode) {
    case 'search': {
      if (!args.query?.trim()) throw new Error('search mode needs a query');
      if (!sqlite) return { hits: await store.search(args.query, { limit: args.limit * 5 }) };
      return discoverSessions(sqlite.db, args.query, { limit: args.limit });
    }
    case 'scroll': {
      if (!args.session_id || !args.message_id)
        throw new Error('scroll mode needs session_id and message_id');
      if (!sqlite) throw new Error('scroll mode needs the SQLite session store');
      const result = scrollSession(sqlite.db, args.session_id, args.message_id, {
        before: args.window,
        after: args.window,
      });
      return result ?? { error: `No message ${args.message_id} in session ${args.session_id}.` };
    }
    case 'read': {
      if (!args.session_id) throw new Error('read mode needs session_id');
      if (!sqlite)
        return { messages: await store.getMessages(args.session_id, { includeInactive: true }) };
      return (
        readSession(sqlite.db, args.session_id, { maxContentChars: 4_000 }) ?? {
          error: `No session ${args.session_id}.`,
        }
      );
    }
    case 'recent':
      if (!sqlite) return { sessions: await store.listSessions({}) };
      return { sessions: browseRecentSessions(sqlite.db, { limit: args.limit }) };
  }
}
