/** Pieces shared by the search strategies: filter SQL, hit columns, rows into hits. */
import { z } from 'zod';
import type { SearchHit } from '../../search.js';

/** Filter values bound by name into every search statement. */
export interface SearchFilters {
  readonly sessionId: string | null;
  readonly source: string | null;
  readonly includeArchived: 0 | 1;
  /** JSON array of roles, or null for all. */
  readonly roles: string | null;
  readonly limit: number;
}

/** The WHERE conditions shared by every strategy; `m` is the joined `messages` row. */
export const FILTER_SQL = `(@sessionId IS NULL OR m.session_id = @sessionId)
  AND (@source IS NULL OR m.session_id IN (SELECT id FROM sessions WHERE source = @source))
  AND (@includeArchived = 1 OR m.active = 1)
  AND (@roles IS NULL OR m.role IN (SELECT value FROM json_each(@roles)))`;

/** Columns of a hit, shared by every strategy. */
export const HIT_COLUMNS = 'm.id, m.session_id, m.role, m.created_at, m.active';

/** A ranked row as the search statements return it. */
export const RankedRowSchema = z.object({
  id: z.number().int().positive(),
  session_id: z.string().min(1),
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  created_at: z.number().int().nonnegative(),
  active: z.number(),
  snippet: z.string().nullable(),
  rank: z.number(),
});

/** A hit from its row; `score` is supplied by the strategy. */
export function toHit(row: z.infer<typeof RankedRowSchema>, score: number): SearchHit {
  return {
    sessionId: row.session_id,
    messageId: row.id,
    role: row.role,
    snippet: row.snippet ?? '',
    score,
    createdAt: row.created_at,
    active: row.active === 1,
  };
}
