/**
 * Phase 2 for one span: ask the summarizer (or fall back), validate, merge with the previous
 * summary section by section, overwrite the task snapshot, and append the code-built sections.
 */
import type { ChatMessage } from '@hermes/protocol';
import { buildAppendix } from './appendix.js';
import { fallbackSections } from './fallback-summary.js';
import { clip, transcriptEntry } from './message-text.js';
import { redactSecrets } from './redact.js';
import {
  callSummarizer,
  classifySummarizerError,
  type Summarizer,
  summaryTokenBudget,
} from './summarizer.js';
import {
  appendSections,
  mergeSections,
  parseSections,
  previousModelSections,
  renderSummary,
  type Sections,
} from './summary-sections.js';
import {
  FORBIDDEN_IN_SENTINEL,
  MODEL_SECTIONS,
  NO_USER_SENTINEL,
  SNAPSHOT_SECTION,
  summarizerPrompt,
  summarizerSystemPrompt,
  USER_MESSAGES_SECTION,
} from './summary-template.js';
import { CHARS_PER_TOKEN, estimateTokens } from './token-estimate.js';

/** Longest single message in the summarizer's transcript. */
const TRANSCRIPT_MESSAGE_CHARS = 4_000;

/** Everything one span summary needs. */
export interface SpanSummaryInput {
  /** The messages being replaced, without the previous summary message. */
  readonly span: readonly ChatMessage[];
  /** The text of the previous summary message, when the span began with one. */
  readonly previousSummary: string | undefined;
  /** The real last user message of the whole conversation, as text. */
  readonly lastUserText: string | undefined;
  readonly focusTopic: string | undefined;
  readonly memoryContext: string | undefined;
  readonly contextLength: number;
  /** `undefined` when there is none or it is backing off: the fallback is used. */
  readonly summarizer: Summarizer | undefined;
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
}

/** The outcome of one span summary. */
export type SpanSummary = WrittenSummary | RefusedSummary;

/** A summary was written, by the model or by the fallback. */
export interface WrittenSummary {
  readonly kind: 'model' | 'fallback';
  readonly text: string;
  readonly failure?: string;
}

/** No summary: authentication refused, the host cancelled, or the model's was too long. */
export interface RefusedSummary {
  readonly kind: 'auth' | 'cancelled' | 'too_long';
  readonly failure: string;
}

/** Whether a summary was written. */
export function isWritten(summary: SpanSummary): summary is WrittenSummary {
  return summary.kind === 'model' || summary.kind === 'fallback';
}

/** The model sections as text, for an iterative update prompt. */
function sectionsText(sections: Sections): string {
  return [...sections].map(([name, body]) => `## ${name}\n${body}`).join('\n\n');
}

/** Whether the span (or the quotes of the previous summary) hold any real user message. */
function hasUserMessages(input: SpanSummaryInput): boolean {
  if (input.span.some((m) => m.role === 'user')) return true;
  const previous = input.previousSummary ? parseSections(input.previousSummary) : undefined;
  const quoted = previous?.get(USER_MESSAGES_SECTION)?.trim();
  return quoted !== undefined && quoted !== '' && quoted !== 'None';
}

/** Asks the summarizer; resolves to its sections or to the reason it was not usable. */
async function modelSections(
  input: SpanSummaryInput,
  sentinel: boolean,
  spanTokens: number,
): Promise<Sections | SpanSummary> {
  const summarizer = input.summarizer as Summarizer;
  const previous = input.previousSummary ? previousModelSections(input.previousSummary) : undefined;
  const maxTokens = summaryTokenBudget(spanTokens, input.contextLength);
  const transcript = input.span.map((m) => transcriptEntry(m, TRANSCRIPT_MESSAGE_CHARS));
  const prompt = summarizerPrompt({
    transcript: redactSecrets(transcript.join('\n\n')),
    targetTokens: maxTokens,
    ...(previous?.size ? { previousSummary: sectionsText(previous) } : {}),
    ...(input.focusTopic ? { focusTopic: input.focusTopic } : {}),
    ...(input.memoryContext ? { memoryContext: redactSecrets(input.memoryContext) } : {}),
  });
  let text: string;
  try {
    const request = { system: summarizerSystemPrompt(sentinel), prompt, maxTokens };
    text = await callSummarizer(summarizer, request, input.timeoutMs, input.signal);
  } catch (error) {
    const kind = classifySummarizerError(error, input.signal);
    const reason = error instanceof Error ? error.name : 'error';
    if (kind === 'failed') return { kind: 'fallback', text: '', failure: `summarizer ${reason}` };
    return {
      kind,
      failure: `summarizer ${kind === 'auth' ? 'authentication failed' : 'cancelled'}`,
    };
  }
  const clean = redactSecrets(text);
  if (Math.ceil(clean.length / CHARS_PER_TOKEN) > spanTokens) {
    return { kind: 'too_long', failure: 'summary longer than the span it replaces' };
  }
  const sections = parseSections(clean);
  if (!MODEL_SECTIONS.some((s) => sections.has(s))) {
    return { kind: 'fallback', text: '', failure: 'summary did not follow the template' };
  }
  if (sentinel && FORBIDDEN_IN_SENTINEL.test(clean)) {
    return { kind: 'fallback', text: '', failure: 'summary invented a user in a user-less span' };
  }
  return sections;
}

/** Summarizes one span into the final summary text (prefix, sections, appendices). */
export async function summarizeSpan(input: SpanSummaryInput): Promise<SpanSummary> {
  // A session without any user message: the sentinel variant, so no user is invented.
  const sentinel = input.lastUserText === undefined && !hasUserMessages(input);
  const spanTokens =
    estimateTokens(input.span) + Math.ceil((input.previousSummary?.length ?? 0) / CHARS_PER_TOKEN);
  let sections: Sections;
  let failure: string | undefined;
  const got = input.summarizer
    ? await modelSections(input, sentinel, spanTokens)
    : ({ kind: 'fallback', text: '', failure: 'no summarizer available' } as const);
  if (got instanceof Map) {
    sections = got;
  } else if (got.kind === 'fallback') {
    sections = fallbackSections(input.span, got.failure ?? 'summarizer unavailable');
    failure = got.failure;
  } else {
    return got;
  }
  const previous = input.previousSummary ? previousModelSections(input.previousSummary) : new Map();
  const merged =
    failure === undefined ? mergeSections(previous, sections) : appendSections(previous, sections);
  merged.set(SNAPSHOT_SECTION, snapshot(sentinel, input.lastUserText));
  const text = renderSummary(merged, buildAppendix(input.span, input.previousSummary));
  const kind = got instanceof Map ? 'model' : 'fallback';
  return failure === undefined ? { kind, text } : { kind, text, failure };
}

/** The task snapshot: the real last user message, or the sentinel. */
function snapshot(sentinel: boolean, lastUserText: string | undefined): string {
  if (sentinel || lastUserText === undefined) return NO_USER_SENTINEL;
  const quoted = redactSecrets(clip(lastUserText, 2_000)).replace(/\n/g, '\n> ');
  return `The latest user message (answer it where it appears after this summary, not here):\n> ${quoted}`;
}
