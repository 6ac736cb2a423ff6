/**
 * Writing a whole exported session into PostgreSQL (`hermes storage copy`): the record with its
 * counters, flags and times, and every row (archived ones included) with its flags and times.
 * Rows get fresh ids in the export's order, so they stay in order among themselves.
 */
import type { SessionExport } from '../session-export.js';
import { insertMessageRows, type Tx } from './message-writes.js';
import { escapeSessionText, messageInsert } from './row-mapping.js';
import { sessions } from './schema.js';

/**
 * Inserts the session unless its id exists (`ON CONFLICT DO NOTHING`, so two concurrent copies
 * cannot both write it) and then its messages. Resolves to false when the id was taken. The
 * parent need not exist: lineage has no foreign key, so children may come before parents.
 */
export async function importSessionRows(tx: Tx, doc: SessionExport): Promise<boolean> {
  const s = doc.session;
  const inserted = await tx
    .insert(sessions)
    .values(
      escapeSessionText({
        id: s.id,
        source: s.source,
        userId: s.userId,
        sessionKey: s.sessionKey,
        chatId: s.chatId,
        threadId: s.threadId,
        title: s.title,
        model: s.model,
        provider: s.provider,
        systemPromptHash: s.systemPromptHash,
        parentSessionId: s.parentSessionId,
        startedAt: s.startedAt,
        endedAt: s.endedAt,
        endReason: s.endReason,
        archived: s.archived,
        compressionCooldownUntil: s.compressionCooldownUntil,
        compressionFailureStreak: s.compressionFailureStreak,
        messageCount: s.counters.messages,
        toolCallCount: s.counters.toolCalls,
        apiCallCount: s.counters.apiCalls,
        inputTokens: s.counters.inputTokens,
        outputTokens: s.counters.outputTokens,
        cacheReadTokens: s.counters.cacheReadTokens,
        cacheWriteTokens: s.counters.cacheWriteTokens,
        reasoningTokens: s.counters.reasoningTokens,
        estimatedCostUsd: s.counters.estimatedCostUsd,
        compressionCount: s.counters.compressions,
      }),
    )
    .onConflictDoNothing({ target: sessions.id })
    .returning({ id: sessions.id });
  if (inserted.length === 0) return false;
  const rows = [...doc.messages].sort((a, b) => a.id - b.id);
  await insertMessageRows(
    tx,
    rows.map((row) => ({
      ...messageInsert(
        s.id,
        {
          message: row.message,
          ...(row.apiContent === null ? {} : { apiContent: row.apiContent }),
          ...(row.finishReason === null ? {} : { finishReason: row.finishReason }),
          ...(row.tokenCount === null ? {} : { tokenCount: row.tokenCount }),
          ...(row.platformMessageId === null ? {} : { platformMessageId: row.platformMessageId }),
        },
        row.createdAt,
      ),
      active: row.active,
      compacted: row.compacted,
    })),
  );
  return true;
}
