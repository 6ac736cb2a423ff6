/** How `hermes sessions` prints sessions, transcripts and search hits. */
import type { ChatMessage, MessageContent } from '@hermes/protocol';
import type { SearchHit, SessionRecord, StoredMessage } from '@hermes/state';

/** `2025-01-02 03:04` in local time. */
export function formatTime(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** One line, at most `max` characters, with an ellipsis when cut. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The text of a message's content; images become `[image]`. */
export function contentText(content: MessageContent | null): string {
  if (content === null) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : '[image]')).join('\n');
}

/** Columns padded to their widest cell; the last column is not padded. */
export function table(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  return rows.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

/** The `hermes sessions list` table, newest first. */
export function sessionTable(sessions: readonly SessionRecord[]): string[] {
  const header = ['ID', 'STARTED', 'SOURCE', 'MODEL', 'MSGS', 'TITLE'];
  const rows = sessions.map((s) => [
    s.id,
    formatTime(s.startedAt),
    s.source,
    s.model ?? '-',
    String(s.counters.messages),
    oneLine(s.title ?? '', 60) + (s.archived ? ' (archived)' : ''),
  ]);
  return table([header, ...rows]);
}

/** The facts block at the top of `hermes sessions show`. */
export function sessionFacts(s: SessionRecord): string[] {
  const c = s.counters;
  const ended =
    s.endedAt === null ? 'open' : `${formatTime(s.endedAt)} (${s.endReason ?? 'ended'})`;
  return [
    `session   ${s.id}${s.archived ? ' (archived)' : ''}`,
    `title     ${s.title ?? '-'}`,
    `source    ${s.source}`,
    `model     ${s.model ?? '-'}${s.provider ? ` via ${s.provider}` : ''}`,
    `started   ${formatTime(s.startedAt)}`,
    `ended     ${ended}`,
    ...(s.parentSessionId ? [`parent    ${s.parentSessionId}`] : []),
    `messages  ${c.messages} (${c.toolCalls} tool calls, ${c.apiCalls} model calls)`,
    `tokens    ${c.inputTokens} in, ${c.outputTokens} out, ${c.cacheReadTokens} cache hits; ~$${c.estimatedCostUsd.toFixed(4)}`,
  ];
}

function messageLines(message: ChatMessage): string[] {
  const text = message.role === 'system' ? message.content : contentText(message.content);
  switch (message.role) {
    case 'assistant': {
      const calls = (message.tool_calls ?? []).map(
        (call) => `    → ${call.function.name}(${oneLine(call.function.arguments, 120)})`,
      );
      return [...(text ? [`assistant: ${text}`] : ['assistant:']), ...calls];
    }
    case 'tool':
      return [`tool${message.name ? ` ${message.name}` : ''}: ${oneLine(text, 400)}`];
    case 'system':
      return [`system: ${oneLine(text, 200)}`];
    default:
      return [`user: ${text}`];
  }
}

/** The transcript: one block per message, archived (compacted) rows marked. */
export function transcript(messages: readonly StoredMessage[]): string[] {
  const out: string[] = [];
  for (const row of messages) {
    const lines = messageLines(row.message);
    if (!row.active) lines[0] = `[archived] ${lines[0]}`;
    out.push(...lines, '');
  }
  return out;
}

/** Search hits grouped by session, best session first. */
export function searchResults(
  hits: readonly SearchHit[],
  sessions: ReadonlyMap<string, SessionRecord>,
): string[] {
  const order: string[] = [];
  const bySession = new Map<string, SearchHit[]>();
  for (const hit of hits) {
    if (!bySession.has(hit.sessionId)) {
      order.push(hit.sessionId);
      bySession.set(hit.sessionId, []);
    }
    bySession.get(hit.sessionId)?.push(hit);
  }
  const out: string[] = [];
  for (const id of order) {
    const session = sessions.get(id);
    const title = session?.title ? `  ${oneLine(session.title, 60)}` : '';
    const when = session ? `  ${formatTime(session.startedAt)}` : '';
    out.push(`${id}${when}${title}`);
    for (const hit of bySession.get(id) ?? [])
      out.push(`  ${hit.role}: ${oneLine(hit.snippet, 160)}`);
    out.push('');
  }
  return out;
}
