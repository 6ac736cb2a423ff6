/**
 * Discovery, the query mode of `session_search`: rank messages, group the hits by session
 * lineage, and expand the best sessions with the real messages around their best hit.
 */
import type Database from 'better-sqlite3';
import type { SearchHit } from '../../search.js';
import { clampCount, prepared, sessionSummary } from './rows.js';
import type { DiscoveredSession, DiscoveryResult } from './schemas.js';
import { type MessageSearchOptions, searchMessages } from './search-messages.js';
import { conversationEdge, scrollSession } from './session-views.js';

type Db = Database.Database;

/** Options of {@link discoverSessions}. */
export interface DiscoverOptions
  extends Pick<MessageSearchOptions, 'source' | 'includeArchived' | 'roles'> {
  /** At most this many sessions (lineages). Default 3. */
  readonly limit?: number;
  /** Messages on each side of the best hit. Default 5. */
  readonly windowSize?: number;
  /** First and last user/assistant messages shown per session. Default 3. */
  readonly edgeCount?: number;
  /**
   * Cut each shown message to this many characters. Default 2000: tool outputs can be huge and
   * the result goes into the model's context.
   */
  readonly maxContentChars?: number;
}

/** Ranked hits read per requested session, so a chatty lineage cannot crowd the others out. */
const HITS_PER_SESSION = 20;
/** Parent links followed at most; a longer chain stops there. */
const MAX_LINEAGE_DEPTH = 256;

/**
 * The oldest ancestor of a session through `parent_session_id`; itself when it has none. A
 * parent that no longer exists ends the chain. A cycle (only possible through manual edits) has
 * no oldest member, so its smallest id stands for it: every member then maps to the same root.
 */
export function lineageRoot(db: Db, sessionId: string): string {
  const parentOf = prepared(db, 'SELECT parent_session_id AS parent FROM sessions WHERE id = ?');
  const chain: string[] = [sessionId];
  let current = sessionId;
  for (let depth = 0; depth < MAX_LINEAGE_DEPTH; depth += 1) {
    const row = parentOf.get(current) as { parent: string | null } | undefined;
    if (!row || row.parent === null) break;
    const parent = row.parent;
    const seen = chain.indexOf(parent);
    if (seen !== -1) return chain.slice(seen).sort()[0] ?? parent;
    const exists = parentOf.get(parent) !== undefined;
    if (!exists) break;
    chain.push(parent);
    current = parent;
  }
  return current;
}

interface LineageGroup {
  readonly root: string;
  readonly best: SearchHit;
  count: number;
}

/** Groups hits (best first) by lineage root, keeping each lineage's first (best) hit. */
function groupByLineage(db: Db, hits: readonly SearchHit[]): LineageGroup[] {
  const roots = new Map<string, string>();
  const groups = new Map<string, LineageGroup>();
  for (const hit of hits) {
    let root = roots.get(hit.sessionId);
    if (root === undefined) {
      root = lineageRoot(db, hit.sessionId);
      roots.set(hit.sessionId, root);
    }
    const group = groups.get(root);
    if (group) group.count += 1;
    else groups.set(root, { root, best: hit, count: 1 });
  }
  return [...groups.values()];
}

/**
 * Finds the sessions best matching a query. Hits are grouped by lineage (a session continued
 * by a child, e.g. after compression, counts once), lineages are ordered by their best hit, and
 * each of the top `limit` comes with ±`windowSize` messages around that hit and the first and
 * last user/assistant messages of the hit's session. Archived rows are searched and shown.
 */
export function discoverSessions(
  db: Db,
  query: string,
  options: DiscoverOptions = {},
): DiscoveryResult {
  const limit = clampCount(options.limit, 3, 50);
  const windowSize = options.windowSize === 0 ? 0 : clampCount(options.windowSize, 5, 50);
  const edgeCount = options.edgeCount === 0 ? 0 : clampCount(options.edgeCount, 3, 20);
  const maxChars = options.maxContentChars ?? 2000;
  const hits = searchMessages(db, query, {
    limit: limit * HITS_PER_SESSION,
    ...(options.source !== undefined ? { source: options.source } : {}),
    ...(options.includeArchived !== undefined ? { includeArchived: options.includeArchived } : {}),
    ...(options.roles !== undefined ? { roles: options.roles } : {}),
  });
  const sessions: DiscoveredSession[] = [];
  for (const group of groupByLineage(db, hits).slice(0, limit)) {
    const { best } = group;
    const session = sessionSummary(db, best.sessionId);
    const scroll = scrollSession(db, best.sessionId, best.messageId, {
      before: windowSize,
      after: windowSize,
      maxContentChars: maxChars,
    });
    if (!session || !scroll) continue; // deleted between the search and now
    sessions.push({
      session,
      rootSessionId: group.root,
      bestHit: best,
      matchCount: group.count,
      window: scroll.messages,
      firstMessages: conversationEdge(db, best.sessionId, 'first', edgeCount, maxChars),
      lastMessages: conversationEdge(db, best.sessionId, 'last', edgeCount, maxChars),
    });
  }
  return { query, sessions };
}
