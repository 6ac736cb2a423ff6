/**
 * `hermes storage copy --from sqlite --to postgres`: every session of `HERMES_HOME/state.db`
 * (archived and compacted rows, children, system prompts) into the configured PostgreSQL
 * database, then a count check per session. Re-running it skips sessions already copied, so an
 * interrupted copy is finished by running it again.
 */
import type { SessionStore } from '@hermes/state';
import type { PostgresSessionStore } from '@hermes/state/postgres';

/** What {@link copySessions} did. */
export interface CopyReport {
  /** Sessions in the source. */
  readonly sessions: number;
  /** Messages in the source, archived ones included. */
  readonly messages: number;
  /** Sessions written now. */
  readonly copied: number;
  /** Sessions the target already had (an earlier copy). */
  readonly skipped: number;
  /** Sessions whose message count differs between source and target after the copy. */
  readonly mismatched: readonly string[];
}

/** Progress, one call per session. */
export type CopyProgress = (done: number, total: number) => void;

/** Copies every session of `source` into `target` and checks the counts. */
export async function copySessions(
  source: SessionStore,
  target: PostgresSessionStore,
  onProgress?: CopyProgress,
): Promise<CopyReport> {
  // Oldest first: a parent is written before the children compaction split from it.
  const sessions = (await source.listSessions({ includeArchived: true })).sort(
    (a, b) => a.startedAt - b.startedAt,
  );
  let messages = 0;
  let copied = 0;
  let skipped = 0;
  const mismatched: string[] = [];
  for (const [index, session] of sessions.entries()) {
    const doc = await source.export(session.id);
    if (!doc) continue;
    messages += doc.messages.length;
    if (session.systemPromptHash) {
      const prompt = await source.getSystemPrompt(session.systemPromptHash);
      if (prompt !== undefined) await target.saveSystemPrompt(session.systemPromptHash, prompt);
    }
    const result = await target.importSession(doc);
    if (result === 'imported') copied += 1;
    else skipped += 1;
    const stored = await target.getMessages(session.id, { includeInactive: true });
    if (stored.length !== doc.messages.length) mismatched.push(session.id);
    onProgress?.(index + 1, sessions.length);
  }
  return { sessions: sessions.length, messages, copied, skipped, mismatched };
}
