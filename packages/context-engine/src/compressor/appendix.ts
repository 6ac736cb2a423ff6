/**
 * The three summary sections code writes without a model: an anchor index (paths, commands and
 * IDs found by pattern), a session log excerpt, and the user's messages verbatim, newest first.
 * They survive any summarizer mistake, so exact strings stay findable.
 *
 * Everything here reads a span whose messages were redacted whole beforehand (see
 * `redacted-span.ts`); the results are redacted once more on the way out. Order follows message
 * position: the messages before the previous summary are older than everything it summarized,
 * and the messages after it are newer.
 */
import type { ChatMessage } from '@hermes/protocol';
import { collectAnchors, mergeAnchors, parseAnchors, renderAnchors } from './anchor-index.js';
import { clip, contentText, oneLine } from './message-text.js';
import { redactSecrets } from './redact.js';
import { isSummaryText, parseSections } from './summary-sections.js';
import { CODE_SECTIONS, type SectionName } from './summary-template.js';

/** Caps that keep the appendix bounded. */
const LOG_BUDGET_CHARS = 6_000;
const LOG_LINE_CHARS = 160;
/** The user-messages section shares this budget; every message keeps at least its floor. */
const USER_SECTION_BUDGET_CHARS = 16_000;
const USER_MESSAGE_FLOOR_CHARS = 300;

/** The span split at the previous summary's position. */
export interface SplitSpan {
  /** Messages that came before the previous summary: older than all it summarized. */
  readonly older: readonly ChatMessage[];
  /** Messages that came after it: the newest. */
  readonly newer: readonly ChatMessage[];
}

/** Lines within `budget` characters; long logs keep their start and end. */
function budgeted(lines: readonly string[], budget: number): string[] {
  let used = 0;
  let cut = lines.length;
  for (let i = 0; i < lines.length; i++) {
    used += (lines[i] as string).length + 1;
    if (used > budget) {
      cut = i;
      break;
    }
  }
  if (cut === lines.length) return [...lines];
  const headCount = Math.max(1, Math.floor(cut / 3));
  const tailCount = Math.max(1, cut - headCount);
  const omitted = lines.length - headCount - tailCount;
  return [
    ...lines.slice(0, headCount),
    `… ${omitted} entries omitted …`,
    ...lines.slice(-tailCount),
  ];
}

/** One log line per message, numbered from `first`. */
function logLines(messages: readonly ChatMessage[], first: number): string[] {
  return messages.map((message, i) => {
    const calls =
      message.role === 'assistant' && message.tool_calls?.length
        ? ` -> ${message.tool_calls.map((c) => c.function.name).join(', ')}`
        : '';
    const text = oneLine(contentText(message.content), LOG_LINE_CHARS);
    return `${first + i}. ${message.role}${calls}: ${text}`;
  });
}

/**
 * The session log, oldest first: the messages before the previous summary, the previous
 * summary's log (clipped), then the messages after it.
 */
export function sessionLogExcerpt(span: SplitSpan, previous: string | undefined): string {
  const parts: string[] = [];
  if (span.older.length > 0) {
    parts.push(budgeted(logLines(span.older, 1), LOG_BUDGET_CHARS / 4).join('\n'));
  }
  if (previous?.trim() && previous.trim() !== 'None') {
    parts.push(clip(previous.trim(), LOG_BUDGET_CHARS / 2));
  }
  if (span.newer.length > 0) {
    const first = span.older.length + 1;
    parts.push(budgeted(logLines(span.newer, first), LOG_BUDGET_CHARS).join('\n'));
  }
  return redactSecrets(parts.join('\n--- later ---\n'));
}

/**
 * The user messages, newest first: those after the previous summary, then the ones it quoted,
 * then those before it.
 */
export function userMessagesVerbatim(span: SplitSpan, previous: string | undefined): string {
  const older = span.older.filter((m) => m.role === 'user');
  const newer = span.newer.filter((m) => m.role === 'user');
  // Every message stays (start and end of long ones), so the section cannot outgrow the span.
  const cap = Math.max(
    USER_MESSAGE_FLOOR_CHARS,
    Math.floor(USER_SECTION_BUDGET_CHARS / Math.max(1, older.length + newer.length)),
  );
  const quote = (m: ChatMessage) => `> ${clip(contentText(m.content), cap).replace(/\n/g, '\n> ')}`;
  const earlier = previous?.trim() && previous.trim() !== 'None' ? [previous.trim()] : [];
  const all = [...newer.map(quote).reverse(), ...earlier, ...older.map(quote).reverse()];
  return redactSecrets(all.join('\n\n'));
}

/**
 * All three code sections for the span (which excludes the previous summary message), carrying
 * over what the previous summary's code sections held, in message order.
 */
export function buildAppendix(
  span: SplitSpan,
  previousSummary: string | undefined,
): Map<SectionName, string> {
  const [anchors, log, users] = CODE_SECTIONS;
  const previous =
    previousSummary && isSummaryText(previousSummary)
      ? parseSections(previousSummary)
      : new Map<string, string>();
  const fresh = collectAnchors([...span.older, ...span.newer]);
  const earlier = parseAnchors(previous.get(anchors));
  return new Map<SectionName, string>([
    [anchors, redactSecrets(renderAnchors(mergeAnchors(fresh, earlier)))],
    [log, sessionLogExcerpt(span, previous.get(log))],
    [users, userMessagesVerbatim(span, previous.get(users))],
  ]);
}
