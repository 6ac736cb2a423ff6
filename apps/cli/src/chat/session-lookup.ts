/** Finding a past session by id, by title, or the latest one (`/resume`, `--resume`, `--continue`). */
import type { SessionRecord, SessionStore } from '@hermes/state';

/** Sessions the CLI lists and resumes: its own, newest first, not archived. */
export async function recentSessions(store: SessionStore, limit = 10): Promise<SessionRecord[]> {
  return store.listSessions({ source: 'cli', limit });
}

/** The newest CLI session, if any. */
export async function latestSession(store: SessionStore): Promise<SessionRecord | undefined> {
  return (await recentSessions(store, 1))[0];
}

/**
 * The session `query` names: an exact id, else the newest whose title equals it (ignoring case),
 * else the newest whose title contains it, else one whose id starts with it.
 */
export async function findSession(
  store: SessionStore,
  query: string,
): Promise<SessionRecord | undefined> {
  const wanted = query.trim();
  if (wanted === '') return undefined;
  const exact = await store.getSession(wanted);
  if (exact) return exact;
  const all = await store.listSessions({ includeArchived: true });
  const lower = wanted.toLowerCase();
  return (
    all.find((s) => s.title?.toLowerCase() === lower) ??
    all.find((s) => s.title?.toLowerCase().includes(lower)) ??
    all.find((s) => s.id.startsWith(wanted))
  );
}

/** One line describing a session for listings. */
export function sessionLine(session: SessionRecord): string {
  const when = new Date(session.startedAt).toISOString().slice(0, 16).replace('T', ' ');
  const title = session.title ?? '(untitled)';
  return `${session.id}  ${when}  ${title}  (${session.counters.messages} messages)`;
}
