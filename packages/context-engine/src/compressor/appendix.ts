/**
 * The three summary sections code writes without a model: an anchor index (paths, commands and
 * IDs found by pattern), a session log excerpt, and the user's messages verbatim, newest first.
 * They survive any summarizer mistake, so exact strings stay findable.
 */
import type { ChatMessage } from '@hermes/protocol';
import { clip, contentText, oneLine } from './message-text.js';
import { redactSecrets } from './redact.js';
import { isSummaryText, parseSections } from './summary-sections.js';
import { CODE_SECTIONS, type SectionName } from './summary-template.js';

/** Caps that keep the appendix bounded. */
const MAX_ANCHORS_PER_KIND = 40;
const LOG_BUDGET_CHARS = 6_000;
const LOG_LINE_CHARS = 160;
/** The user-messages section shares this budget; every message keeps at least its floor. */
const USER_SECTION_BUDGET_CHARS = 16_000;
const USER_MESSAGE_FLOOR_CHARS = 300;

const PATH = /(?:^|[\s"'`(=])((?:~|\.{1,2})?\/?(?:[\w.@-]+\/)+[\w.@-]+)/g;
const ID_PATTERNS: readonly RegExp[] = [
  /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi,
  /\b[0-9a-f]{7,40}\b/g,
  /(?<![\w/])#\d{1,7}\b/g,
  /\b[A-Z][A-Z0-9]{1,9}-\d{1,6}\b/g,
];

/** Adds each match of `pattern` in `text` (group 1 if present) to `into`, up to the cap. */
function collect(into: Set<string>, pattern: RegExp, text: string): void {
  for (const match of text.matchAll(pattern)) {
    if (into.size >= MAX_ANCHORS_PER_KIND) return;
    const value = match[1] ?? match[0];
    // A hex run must hold a digit and a letter, or it is an ordinary word or number.
    if (/^[0-9a-f]+$/i.test(value) && !(/\d/.test(value) && /[a-f]/i.test(value))) continue;
    into.add(value);
  }
}

/** The `command` argument of a tool call, when its arguments are JSON holding one. */
function commandArgument(raw: string): string | undefined {
  if (!raw.includes('"command"')) return undefined;
  try {
    const value: unknown = JSON.parse(raw);
    const command = (value as { command?: unknown } | null)?.command;
    return typeof command === 'string' ? command : undefined;
  } catch {
    return undefined;
  }
}

/** The commands the span ran, from `command` arguments of tool calls. */
function commandsOf(span: readonly ChatMessage[], into: Set<string>): void {
  for (const message of span) {
    if (message.role !== 'assistant') continue;
    for (const call of message.tool_calls ?? []) {
      if (into.size >= MAX_ANCHORS_PER_KIND) return;
      const command = commandArgument(call.function.arguments);
      if (command) into.add(oneLine(command, 200));
    }
  }
}

/** The anchor index of a span, one bullet list per kind. */
export function anchorIndex(span: readonly ChatMessage[]): string {
  const paths = new Set<string>();
  const ids = new Set<string>();
  const commands = new Set<string>();
  commandsOf(span, commands);
  for (const message of span) {
    const text = contentText(message.content);
    const args = message.role === 'assistant' ? (message.tool_calls ?? []) : [];
    const all = [text, ...args.map((c) => c.function.arguments)].join('\n');
    collect(paths, PATH, all);
    for (const pattern of ID_PATTERNS) collect(ids, pattern, all);
  }
  const list = (label: string, values: Set<string>) =>
    values.size === 0 ? [] : [`${label}:`, ...[...values].map((v) => `- ${v}`)];
  const lines = [...list('Paths', paths), ...list('Commands', commands), ...list('IDs', ids)];
  return redactSecrets(lines.join('\n'));
}

/** One log line per message; long logs keep their start and end. */
export function sessionLogExcerpt(span: readonly ChatMessage[]): string {
  const lines = span.map((message, i) => {
    const calls =
      message.role === 'assistant' && message.tool_calls?.length
        ? ` -> ${message.tool_calls.map((c) => c.function.name).join(', ')}`
        : '';
    const text = oneLine(contentText(message.content), LOG_LINE_CHARS);
    return `${i + 1}. ${message.role}${calls}: ${text}`;
  });
  let used = 0;
  let cut = lines.length;
  for (let i = 0; i < lines.length; i++) {
    used += (lines[i] as string).length + 1;
    if (used > LOG_BUDGET_CHARS) {
      cut = i;
      break;
    }
  }
  if (cut === lines.length) return redactSecrets(lines.join('\n'));
  const headCount = Math.max(1, Math.floor(cut / 3));
  const tailCount = Math.max(1, cut - headCount);
  const omitted = lines.length - headCount - tailCount;
  const kept = [
    ...lines.slice(0, headCount),
    `… ${omitted} entries omitted …`,
    ...lines.slice(-tailCount),
  ];
  return redactSecrets(kept.join('\n'));
}

/** The user messages of the span, newest first, then those of a previous summary. */
export function userMessagesVerbatim(
  span: readonly ChatMessage[],
  previous: string | undefined,
): string {
  const users = span.filter((m) => m.role === 'user');
  // Every message stays (start and end of long ones), so the section cannot outgrow the span.
  const cap = Math.max(
    USER_MESSAGE_FLOOR_CHARS,
    Math.floor(USER_SECTION_BUDGET_CHARS / Math.max(1, users.length)),
  );
  const own = users
    .map((m) => `> ${clip(contentText(m.content), cap).replace(/\n/g, '\n> ')}`)
    .reverse();
  const earlier = previous?.trim() && previous.trim() !== 'None' ? [previous.trim()] : [];
  return redactSecrets([...own, ...earlier].join('\n\n'));
}

/** Anchor lines of the new span followed by earlier ones not already listed. */
function mergeAnchors(fresh: string, earlier: string | undefined): string {
  if (!earlier || earlier === 'None') return fresh;
  const seen = new Set(fresh.split('\n'));
  const extra = earlier.split('\n').filter((l) => l.startsWith('- ') && !seen.has(l));
  if (extra.length === 0) return fresh;
  return [fresh, 'Earlier:', ...extra.slice(0, 3 * MAX_ANCHORS_PER_KIND)]
    .filter(Boolean)
    .join('\n');
}

/** The log of earlier compressions (clipped) followed by this span's log. */
function mergeLogs(fresh: string, earlier: string | undefined): string {
  if (!earlier || earlier === 'None') return fresh;
  return `${clip(earlier, LOG_BUDGET_CHARS / 2)}\n--- later ---\n${fresh}`;
}

/**
 * All three code sections for `span` (which excludes the previous summary message), carrying
 * over what the previous summary's code sections held.
 */
export function buildAppendix(
  span: readonly ChatMessage[],
  previousSummary: string | undefined,
): Map<SectionName, string> {
  const [anchors, log, users] = CODE_SECTIONS;
  const previous =
    previousSummary && isSummaryText(previousSummary)
      ? parseSections(previousSummary)
      : new Map<string, string>();
  return new Map<SectionName, string>([
    [anchors, mergeAnchors(anchorIndex(span), previous.get(anchors))],
    [log, mergeLogs(sessionLogExcerpt(span), previous.get(log))],
    [users, userMessagesVerbatim(span, previous.get(users))],
  ]);
}
