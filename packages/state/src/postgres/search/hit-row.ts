/** Rows of the search statements and their conversion into hits. */
import { z } from 'zod';
import type { SearchHit } from '../../search.js';
import { unescapeNul } from '../nul-escape.js';

/** The columns of a hit, shared by every strategy; `m` is the messages row. */
export const HIT_COLUMNS = 'm.id, m.session_id, m.role, m.created_at, m.active';

/** A row as the search statements return it. */
export const HitRowSchema = z.object({
  id: z.number().int().positive(),
  session_id: z.string().min(1),
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  created_at: z.number().int().nonnegative(),
  active: z.boolean(),
  snippet: z.string().nullable(),
});
export type HitRow = z.infer<typeof HitRowSchema>;

/** A hit from its row; `score` is supplied by the strategy. */
export function toHit(row: HitRow, score: number): SearchHit {
  return {
    sessionId: row.session_id,
    messageId: row.id,
    role: row.role,
    snippet: row.snippet === null ? '' : unescapeNul(row.snippet),
    score,
    createdAt: row.created_at,
    active: row.active,
  };
}
