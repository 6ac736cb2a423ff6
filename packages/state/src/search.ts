/** Full-text search over stored messages: the data behind the `session_search` tool. */
import { z } from 'zod';

/** Options of `SessionStore.search`. */
export interface SearchOptions {
  /** At most this many hits, best first. Default 20. */
  readonly limit?: number;
  /** Only this session. */
  readonly sessionId?: string;
  /** Only sessions from this source (platform). */
  readonly source?: string;
  /** Skip archived (compacted) rows. Default `false`: archived rows stay searchable. */
  readonly activeOnly?: boolean;
}

/** One message that matched a search. */
export const SearchHitSchema = z.object({
  sessionId: z.string().min(1),
  messageId: z.number().int().positive(),
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  /** A short excerpt around the match. */
  snippet: z.string(),
  /** Relevance; higher is better. Comparable only within one result list. */
  score: z.number(),
  createdAt: z.number().int().nonnegative(),
  /** False for an archived (compacted) row. */
  active: z.boolean(),
});
export type SearchHit = z.infer<typeof SearchHitSchema>;
