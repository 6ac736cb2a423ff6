/**
 * The deterministic summary used when the summarizer times out, fails, or is backing off. It
 * fills the same headings from the span with plain rules, so turns are never dropped silently:
 * every user message still lands verbatim in the appendix, and commands, files and answers are
 * listed here.
 */
import type { ChatMessage } from '@hermes/protocol';
import { firstFailureLine } from './failure-excerpt.js';
import { contentText, oneLine } from './message-text.js';
import { redactSecrets } from './redact.js';
import type { Sections } from './summary-sections.js';
import { indexToolCalls } from './tool-groups.js';
import { summarizeToolResult } from './tool-result-line.js';

const MAX_ITEMS = 30;

/** The last `MAX_ITEMS` of `items` as a bullet list (with a count of what was left out). */
function bullets(items: readonly string[]): string {
  if (items.length === 0) return 'None';
  const kept = items.slice(-MAX_ITEMS);
  const skipped = items.length - kept.length;
  const head = skipped > 0 ? [`- (${skipped} earlier items omitted; use session_search)`] : [];
  return [...head, ...kept.map((i) => `- ${i}`)].join('\n');
}

/** What the fallback knows about the span's tool results beyond their (shortened) text. */
export interface ToolOutcomes {
  /** The original output of each tool result phase 1 shortened, by span index (unredacted). */
  readonly originalOutputs: ReadonlyMap<number, string>;
  /** Redacted excerpts of failing outputs, by span index. */
  readonly excerpts: ReadonlyMap<number, string>;
}

/**
 * One-line outcomes of every tool result in the span, counted on the original output (the
 * shortened one is a single line), with the error line of a failing one.
 */
function commandLines(span: readonly ChatMessage[], tools: ToolOutcomes | undefined): string[] {
  const calls = indexToolCalls(span);
  return span.flatMap((m, i) => {
    if (m.role !== 'tool') return [];
    const output = tools?.originalOutputs.get(i) ?? contentText(m.content);
    // Only counts and the exit code come from the original, so it needs no redaction here.
    const line = summarizeToolResult(m.name, calls.get(m.tool_call_id), output);
    const excerpt = tools?.excerpts.get(i);
    const error = excerpt === undefined ? undefined : firstFailureLine(excerpt);
    return [error === undefined ? line : `${line}; ${oneLine(error, 200)}`];
  });
}

/** File-like arguments of tool calls (`path`, `file_path`). */
function fileLines(span: readonly ChatMessage[]): string[] {
  const files = new Set<string>();
  for (const m of span) {
    if (m.role !== 'assistant') continue;
    for (const call of m.tool_calls ?? []) {
      const match = /"(?:path|file_path)"\s*:\s*"([^"]{1,300})"/.exec(call.function.arguments);
      if (match) files.add(`${match[1]} (${call.function.name})`);
    }
  }
  return [...files];
}

/**
 * Sections of a fallback summary for `span` (already redacted). `reason` says why no model
 * summary exists.
 */
export function fallbackSections(
  span: readonly ChatMessage[],
  reason: string,
  tools?: ToolOutcomes,
): Sections {
  const users = span.filter((m) => m.role === 'user').map((m) => contentText(m.content));
  const answers = span
    .filter((m) => m.role === 'assistant' && contentText(m.content).trim() !== '')
    .map((m) => oneLine(contentText(m.content), 200));
  const note = `Fallback summary written without a model (${reason}); details via session_search.`;
  const sections: Sections = new Map([
    ['Historical Task Snapshot', ''],
    ['Goals', users.length > 0 ? `1. ${oneLine(users[0] as string, 300)}` : 'None'],
    ['Constraints and Preferences', 'None'],
    ['User Corrections', 'None'],
    ['Decisions', 'None'],
    [
      'Progress',
      `${note}\n### Done\n${bullets(answers)}\n### In Progress\nNone\n### Blocked\nNone`,
    ],
    ['Files and Artifacts', bullets(fileLines(span))],
    ['Commands and Results', bullets(commandLines(span, tools))],
    ['Open Questions', 'None'],
    ['Resolved Questions', 'None'],
    [
      'Pending TODOs (verbatim)',
      users.length > 0 ? `> ${oneLine(users.at(-1) as string, 1_000)}` : 'None',
    ],
    ['Skills in Use', 'None'],
  ]);
  for (const [key, value] of sections) sections.set(key, redactSecrets(value));
  return sections;
}
