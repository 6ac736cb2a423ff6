/** Replacing a session's active conversation while keeping every old row. */
import { z } from 'zod';
import type { AppendableMessage } from './stored-message.js';

/**
 * Where the compacted conversation lives afterwards: `in_place` (default) keeps it in the same
 * session; `child_session` ends the session and continues in a new child session whose
 * `parentSessionId` points back, so the lineage stays traceable.
 */
export type CompactionMode = 'in_place' | 'child_session';

/** The argument of `SessionStore.archiveAndCompact`. */
export interface CompactionRequest {
  /**
   * The new active conversation, in order: typically what the context engine returned (kept head,
   * summary, kept tail). Messages taken over from the old conversation are written again as new
   * rows; the old rows remain, archived.
   */
  readonly replacement: readonly AppendableMessage[];
  /** Default `in_place`. */
  readonly mode?: CompactionMode;
  /** End reason of the old session in `child_session` mode. Default `compression`. */
  readonly endReason?: string;
}

/** What a compaction did. */
export const CompactionResultSchema = z.object({
  /** The session that now holds the active conversation (a new id in `child_session` mode). */
  sessionId: z.string().min(1),
  /** How many previously active rows were archived. */
  archivedCount: z.number().int().nonnegative(),
  /** Ids of the rows written for `replacement`, in order. */
  messageIds: z.array(z.number().int().positive()),
});
export type CompactionResult = z.infer<typeof CompactionResultSchema>;
