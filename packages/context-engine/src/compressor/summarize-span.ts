/**
 * Phase 2 for one span: ask the summarizer (or fall back), validate, merge with the previous
 * summary section by section, overwrite the task snapshot, and append the code-built sections.
 * The span is redacted message by message before anything reads it.
 */
import { type ChatMessage, isHermesError } from '@hermes/protocol';
import { buildAppendix, type SplitSpan } from './appendix.js';
import { failureExcerpts } from './failure-excerpt.js';
import { fallbackSections, type ToolOutcomes } from './fallback-summary.js';
import { clip, contentText, transcriptEntry } from './message-text.js';
import { redactSecrets } from './redact.js';
import { redactMessage } from './redacted-span.js';
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
  SNAPSHOT_SECTION,
  snapshotText,
  summarizerPrompt,
  summarizerSystemPrompt,
  USER_MESSAGES_SECTION,
  type UserPosition,
} from './summary-template.js';
import { CHARS_PER_TOKEN, estimateTokens } from './token-estimate.js';

/** Longest single message in the summarizer's transcript. */
const TRANSCRIPT_MESSAGE_CHARS = 4_000;
/** Longest quote of the latest user message in the task snapshot. */
const SNAPSHOT_CHARS = 2_000;

/** Everything one span summary needs. */
export interface SpanSummaryInput {
  /** The messages being replaced (after phase 1), without the previous summary message. */
  readonly span: readonly ChatMessage[];
  /** How many messages of `span` came before the previous summary (older than it). Default 0. */
  readonly olderCount?: number;
  /** The original message of each one phase 1 shortened, so failures can be quoted. */
  readonly originals?: ReadonlyMap<ChatMessage, ChatMessage>;
  /** The text of the previous summary message, when the span began with one. */
  readonly previousSummary: string | undefined;
  /** The real last user message of the whole conversation, as text. */
  readonly lastUserText: string | undefined;
  /** Where that message ends up: after the summary or before it. */
  readonly lastUserPosition?: 'after' | 'before';
  readonly focusTopic: string | undefined;
  readonly memoryContext: string | undefined;
  readonly contextLength: number;
  /** `undefined` when there is none or it is backing off: the fallback is used. */
  readonly summarizer: Summarizer | undefined;
  /** Why `summarizer` is `undefined` (no summarizer configured, or its backoff). */
  readonly unavailableReason?: string;
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
  /** Set when the summarizer was called and failed: its error class (secret-free). */
  readonly summarizerError?: string;
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

/** The span as every part of the summary reads it: redacted, with failing-output excerpts. */
interface PreparedSpan {
  readonly messages: readonly ChatMessage[];
  readonly split: SplitSpan;
  readonly excerpts: ReadonlyMap<number, string>;
  readonly tools: ToolOutcomes;
}

/** Redacts the span and finds the failing tool outputs phase 1 shortened. */
function prepare(input: SpanSummaryInput): PreparedSpan {
  const messages = input.span.map(redactMessage);
  const olderCount = Math.min(input.olderCount ?? 0, messages.length);
  const originalOutputs = new Map<number, string>();
  input.span.forEach((message, i) => {
    const original = input.originals?.get(message);
    if (message.role === 'tool' && original) {
      originalOutputs.set(i, contentText(original.content));
    }
  });
  const excerpts = failureExcerpts(originalOutputs);
  return {
    messages,
    split: { older: messages.slice(0, olderCount), newer: messages.slice(olderCount) },
    excerpts,
    tools: { originalOutputs, excerpts },
  };
}

/** The model sections as text, for an iterative update prompt. */
function sectionsText(sections: Sections): string {
  return [...sections].map(([name, body]) => `## ${name}\n${body}`).join('\n\n');
}

/**
 * The newest user message the previous summary quoted, unquoted: the first of its User Messages
 * section, else the quote in its task snapshot (a request kept in the head was not summarized,
 * so only the snapshot quotes it).
 */
function newestQuotedUser(previousSummary: string | undefined): string | undefined {
  if (!previousSummary) return undefined;
  const sections = parseSections(previousSummary);
  const quoted = sections
    .get(USER_MESSAGES_SECTION)
    ?.trim()
    .split(/\n\s*\n/)[0]
    ?.trim();
  if (quoted && quoted !== 'None') return quoted.replace(/^> ?/gm, '');
  const snapshot = (sections.get(SNAPSHOT_SECTION) ?? '').split('\n');
  const lines = snapshot.filter((line) => line.startsWith('>')).map((l) => l.replace(/^> ?/, ''));
  return lines.length > 0 ? lines.join('\n') : undefined;
}

/** Where the latest user message is, and its text, for the prefix and the snapshot. */
function latestUser(input: SpanSummaryInput): { position: UserPosition; text?: string } {
  if (input.lastUserText !== undefined) {
    return { position: input.lastUserPosition ?? 'after', text: input.lastUserText };
  }
  const quoted = newestQuotedUser(input.previousSummary);
  return quoted === undefined ? { position: 'none' } : { position: 'quoted', text: quoted };
}

/** The transcript the summarizer reads, failing tool results followed by their excerpt. */
function transcriptOf(prepared: PreparedSpan): string {
  const entries = prepared.messages.map((message, i) => {
    const entry = transcriptEntry(message, TRANSCRIPT_MESSAGE_CHARS);
    const excerpt = prepared.excerpts.get(i);
    return excerpt === undefined
      ? entry
      : `${entry}\nFAILED: excerpt of the original output:\n${excerpt}`;
  });
  return redactSecrets(entries.join('\n\n'));
}

/** The secret-free class of a summarizer error: a Hermes error code or the error's name. */
function errorClass(error: unknown): string {
  if (isHermesError(error)) return error.code;
  return error instanceof Error && error.name ? error.name : 'error';
}

/** A fallback caused by the summarizer itself. */
function summarizerFallback(failure: string, summarizerError: string): WrittenSummary {
  return { kind: 'fallback', text: '', failure, summarizerError };
}

/** Asks the summarizer; resolves to its sections or to the reason it was not usable. */
async function modelSections(
  input: SpanSummaryInput,
  prepared: PreparedSpan,
  sentinel: boolean,
  spanTokens: number,
): Promise<Sections | SpanSummary> {
  const summarizer = input.summarizer as Summarizer;
  const previous = input.previousSummary ? previousModelSections(input.previousSummary) : undefined;
  const maxTokens = summaryTokenBudget(spanTokens, input.contextLength);
  const prompt = summarizerPrompt({
    transcript: transcriptOf(prepared),
    targetTokens: maxTokens,
    ...(previous?.size ? { previousSummary: redactSecrets(sectionsText(previous)) } : {}),
    ...(input.focusTopic ? { focusTopic: redactSecrets(input.focusTopic) } : {}),
    ...(input.memoryContext ? { memoryContext: redactSecrets(input.memoryContext) } : {}),
  });
  let text: string;
  try {
    const request = { system: summarizerSystemPrompt(sentinel), prompt, maxTokens };
    text = await callSummarizer(summarizer, request, input.timeoutMs, input.signal);
  } catch (error) {
    const kind = classifySummarizerError(error, input.signal);
    const name = errorClass(error);
    if (kind === 'failed') return summarizerFallback(`summarizer failed (${name})`, name);
    const why = kind === 'auth' ? 'authentication failed' : 'cancelled';
    return { kind, failure: `summarizer ${why}` };
  }
  const clean = redactSecrets(text);
  if (Math.ceil(clean.length / CHARS_PER_TOKEN) > spanTokens) {
    return { kind: 'too_long', failure: 'summary longer than the span it replaces' };
  }
  const sections = parseSections(clean);
  if (!MODEL_SECTIONS.some((s) => sections.has(s))) {
    return summarizerFallback('summary did not follow the template', 'malformed summary');
  }
  if (sentinel && FORBIDDEN_IN_SENTINEL.test(clean)) {
    return summarizerFallback('summary invented a user in a user-less span', 'invented user');
  }
  return sections;
}

/** Summarizes one span into the final summary text (prefix, sections, appendices). */
export async function summarizeSpan(input: SpanSummaryInput): Promise<SpanSummary> {
  const prepared = prepare(input);
  const latest = latestUser(input);
  // A session without any user message: the sentinel variant, so no user is invented.
  const sentinel = latest.position === 'none';
  const spanTokens =
    estimateTokens(input.span) + Math.ceil((input.previousSummary?.length ?? 0) / CHARS_PER_TOKEN);
  const unavailable = input.unavailableReason ?? 'no summarizer configured';
  const got = input.summarizer
    ? await modelSections(input, prepared, sentinel, spanTokens)
    : ({ kind: 'fallback', text: '', failure: unavailable } as const);
  let sections: Sections;
  let failure: string | undefined;
  if (got instanceof Map) {
    sections = got;
  } else if (got.kind === 'fallback') {
    failure = got.failure ?? 'summarizer unavailable';
    sections = fallbackSections(prepared.messages, failure, prepared.tools);
  } else {
    return got;
  }
  const previous = input.previousSummary ? previousModelSections(input.previousSummary) : new Map();
  const merged =
    failure === undefined ? mergeSections(previous, sections) : appendSections(previous, sections);
  const quote =
    latest.text === undefined ? undefined : clip(redactSecrets(latest.text), SNAPSHOT_CHARS);
  merged.set(SNAPSHOT_SECTION, redactSecrets(snapshotText(latest.position, quote)));
  const appendix = buildAppendix(prepared.split, input.previousSummary);
  // Once more over the whole text: sections carried over from an older summary were written
  // before today's patterns existed.
  const text = redactSecrets(renderSummary(merged, appendix, latest.position));
  if (got instanceof Map) return { kind: 'model', text };
  const error = got.kind === 'fallback' ? got.summarizerError : undefined;
  return {
    kind: 'fallback',
    text,
    ...(failure === undefined ? {} : { failure }),
    ...(error === undefined ? {} : { summarizerError: error }),
  };
}
