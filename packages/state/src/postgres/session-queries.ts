/** Session filters and patches as drizzle expressions. */
import { and, eq, type SQL } from 'drizzle-orm';
import type { ListSessionsOptions, SessionPatch } from '../session-record.js';
import { sessions } from './schema.js';

/** The WHERE of `listSessions`: every given filter, archived sessions only on request. */
export function listSessionsWhere(options: ListSessionsOptions): SQL | undefined {
  const conditions: SQL[] = [];
  if (options.source !== undefined) conditions.push(eq(sessions.source, options.source));
  if (options.userId !== undefined) conditions.push(eq(sessions.userId, options.userId));
  if (options.sessionKey !== undefined)
    conditions.push(eq(sessions.sessionKey, options.sessionKey));
  if (options.parentSessionId !== undefined) {
    conditions.push(eq(sessions.parentSessionId, options.parentSessionId));
  }
  if (!options.includeArchived) conditions.push(eq(sessions.archived, false));
  return conditions.length === 0 ? undefined : and(...conditions);
}

const PATCH_FIELDS = [
  'userId',
  'sessionKey',
  'chatId',
  'threadId',
  'title',
  'model',
  'provider',
  'systemPromptHash',
  'archived',
  'compressionCooldownUntil',
  'compressionFailureStreak',
] as const satisfies readonly (keyof SessionPatch)[];

/** The columns a patch sets: its present keys only (an absent key stays as it is). */
export function sessionPatchValues(patch: SessionPatch): Partial<typeof sessions.$inferInsert> {
  const values: Record<string, unknown> = {};
  for (const field of PATCH_FIELDS) {
    if (patch[field] !== undefined) values[field] = patch[field];
  }
  return values as Partial<typeof sessions.$inferInsert>;
}
