/**
 * One compression: phase 1 over the whole list, carve head / middle / tail, phase 2 on the
 * middle, then splice `head + summary (+ pinned last user message) + tail` and judge progress.
 */
import type { ChatMessage } from '@hermes/protocol';
import type { CompressOptions } from '../compression.js';
import type { FailureGuard } from './failure-guard.js';
import { contentText } from './message-text.js';
import type { CompressorSettings } from './options.js';
import { pruneToolResults } from './prune.js';
import { findRegions, lastRealUserIndex, type Regions } from './regions.js';
import { isWritten, type RefusedSummary, summarizeSpan } from './summarize-span.js';
import type { Summarizer } from './summarizer.js';
import { isSummaryText } from './summary-sections.js';
import { estimateTokens } from './token-estimate.js';

/** Why a compression ended the way it did. */
export type CompressionOutcome =
  | 'summarized'
  | 'fallback'
  | 'pruned'
  | 'nothing_to_compress'
  | 'attempt_limit'
  | 'auth_error'
  | 'cancelled'
  | 'summary_too_long'
  | 'no_gain';

/** A progress verdict needs more than this share of tokens gone (or fewer messages). */
export const PROGRESS_MIN_TOKEN_SHARE = 0.05;

/** The engine state one run reads. */
export interface RunContext {
  readonly settings: CompressorSettings;
  readonly contextLength: number;
  readonly thresholdTokens: number;
  readonly tailTokens: number;
  readonly protectFirstN: number;
  readonly guard: FailureGuard;
  readonly summarizer: Summarizer | undefined;
  /** Tokens of the tool schemas sent with every request (they count toward the threshold). */
  readonly toolSchemaTokens: number;
}

/** What one run produced. */
export interface RunResult {
  readonly messages: readonly ChatMessage[];
  readonly changed: boolean;
  readonly outcome: CompressionOutcome;
  readonly estimateBefore: number;
  readonly estimateAfter: number;
  readonly summary?: string;
  /** Input indices `[start, end)` the summary replaced (the pinned user message excepted). */
  readonly summarizedRange?: { readonly start: number; readonly end: number };
  readonly pinnedUserIndex?: number;
  /** A secret-free description of what went wrong, when something did. */
  readonly failure?: string;
}

/** Whether a compression made progress: fewer messages, or more than 5% fewer tokens. */
export function madeProgress(
  before: { messages: number; tokens: number },
  after: { messages: number; tokens: number },
): boolean {
  return (
    after.messages < before.messages ||
    after.tokens < before.tokens * (1 - PROGRESS_MIN_TOKEN_SHARE)
  );
}

/** The span between head and tail, without the pinned user message. */
function middleOf(messages: readonly ChatMessage[], regions: Regions): ChatMessage[] {
  const middle = messages.slice(regions.headEnd, regions.tailStart);
  if (regions.pinnedUser === undefined) return middle;
  return middle.filter((_, i) => i + regions.headEnd !== regions.pinnedUser);
}

/**
 * Splits a previous summary message off the span. `olderCount` is how many of the remaining
 * messages came before it: they are older than everything it summarized.
 */
function splitPreviousSummary(span: readonly ChatMessage[]): {
  span: ChatMessage[];
  previous: string | undefined;
  olderCount: number;
} {
  let previous: string | undefined;
  let olderCount = 0;
  const rest = span.filter((m, i) => {
    const text = m.role === 'user' || m.role === 'assistant' ? contentText(m.content) : '';
    if (previous === undefined && isSummaryText(text)) {
      previous = text;
      olderCount = i;
      return false;
    }
    return true;
  });
  return { span: rest, previous, olderCount };
}

/** The original of every message phase 1 changed, keyed by the changed copy. */
function originalsOf(
  messages: readonly ChatMessage[],
  pruned: readonly ChatMessage[],
): Map<ChatMessage, ChatMessage> {
  const originals = new Map<ChatMessage, ChatMessage>();
  pruned.forEach((message, i) => {
    const original = messages[i] as ChatMessage;
    if (message !== original) originals.set(message, original);
  });
  return originals;
}

/** Carves the regions, then runs phase 1 between head and tail (images: everywhere). */
function carve(
  ctx: RunContext,
  messages: readonly ChatMessage[],
): { regions: Regions; pruned: readonly ChatMessage[] } {
  const regions = findRegions(messages, {
    protectFirstN: ctx.protectFirstN,
    tailTokens: ctx.tailTokens,
    tailMinMessages: ctx.settings.tailMinMessages,
  });
  const phase1 = pruneToolResults(messages, {
    protectFrom: regions.tailStart,
    protectBefore: regions.headEnd,
    keepImages: ctx.settings.keepImages,
    maxArgumentChars: ctx.settings.maxArgumentChars,
  });
  return { regions, pruned: phase1.messages };
}

/**
 * `head + summary (+ the pinned last user message, verbatim) + tail`. The summary takes the
 * role that differs from the message after it, so roles keep alternating.
 */
function splice(
  messages: readonly ChatMessage[],
  pruned: readonly ChatMessage[],
  regions: Regions,
  text: string,
): ChatMessage[] {
  const pinned =
    regions.pinnedUser === undefined ? [] : [messages[regions.pinnedUser] as ChatMessage];
  const next = pinned.length > 0 ? 'user' : pruned[regions.tailStart]?.role;
  const summary: ChatMessage =
    next === 'user' ? { role: 'assistant', content: text } : { role: 'user', content: text };
  return [
    ...pruned.slice(0, regions.headEnd),
    summary,
    ...pinned,
    ...pruned.slice(regions.tailStart),
  ];
}

/** Runs one compression; never mutates `messages`. */
export async function runCompression(
  ctx: RunContext,
  messages: readonly ChatMessage[],
  options: CompressOptions,
): Promise<RunResult> {
  const estimateBefore = estimateTokens(messages);
  const same = (outcome: CompressionOutcome, failure?: string): RunResult => ({
    messages,
    changed: false,
    outcome,
    estimateBefore,
    estimateAfter: estimateBefore,
    ...(failure === undefined ? {} : { failure }),
  });
  if (!ctx.guard.hasAttemptLeft) return same('attempt_limit', 'compression attempt limit reached');
  ctx.guard.beginAttempt();
  const { regions, pruned } = carve(ctx, messages);
  const middle = middleOf(pruned, regions);
  if (middle.length === 0) {
    if (pruned !== messages) return judge(ctx, messages, pruned, 'pruned', {});
    ctx.guard.nothingToCompress();
    return same('nothing_to_compress');
  }
  const { span, previous, olderCount } = splitPreviousSummary(middle);
  const lastUser = lastRealUserIndex(messages);
  const lastUserMessage = messages[lastUser];
  const summary = await summarizeSpan({
    span,
    olderCount,
    originals: originalsOf(messages, pruned),
    previousSummary: previous,
    lastUserText: lastUserMessage ? contentText(lastUserMessage.content) : undefined,
    lastUserPosition: lastUser >= 0 && lastUser < regions.headEnd ? 'before' : 'after',
    focusTopic: options.focusTopic,
    memoryContext: options.memoryContext,
    contextLength: ctx.contextLength,
    ...summarizerFor(ctx),
    timeoutMs: ctx.settings.summaryTimeoutMs,
    signal: options.signal,
  });
  if (!isWritten(summary)) return refused(ctx, summary, same, messages, pruned);
  if (summary.kind === 'model') ctx.guard.summarizerSucceeded();
  if (summary.summarizerError !== undefined) ctx.guard.summarizerFailed(summary.summarizerError);
  const out = splice(messages, pruned, regions, summary.text);
  const outcome = summary.kind === 'model' ? 'summarized' : 'fallback';
  return judge(ctx, messages, out, outcome, {
    summary: summary.text,
    summarizedRange: { start: regions.headEnd, end: regions.tailStart },
    ...(regions.pinnedUser === undefined ? {} : { pinnedUserIndex: regions.pinnedUser }),
    ...(summary.failure === undefined ? {} : { failure: summary.failure }),
  });
}

/** The summarizer to call now, or why there is none (not configured, or backing off). */
function summarizerFor(ctx: RunContext): {
  summarizer: Summarizer | undefined;
  unavailableReason?: string;
} {
  if (ctx.summarizer === undefined) {
    return { summarizer: undefined, unavailableReason: 'no summarizer configured' };
  }
  const backoff = ctx.guard.backoffReason();
  return backoff === undefined
    ? { summarizer: ctx.summarizer }
    : { summarizer: undefined, unavailableReason: backoff };
}

/**
 * The result for a summary that was not written, with the guard told why. A summary rejected
 * for its length still leaves phase 1's pruning, which needs no model and is often most of the
 * gain; authentication errors and cancellations leave the messages unchanged.
 */
function refused(
  ctx: RunContext,
  summary: RefusedSummary,
  same: (outcome: CompressionOutcome, failure?: string) => RunResult,
  messages: readonly ChatMessage[],
  pruned: readonly ChatMessage[],
): RunResult {
  if (summary.kind === 'auth') {
    ctx.guard.summarizerFailed('authentication');
    return same('auth_error', summary.failure);
  }
  if (summary.kind === 'too_long') {
    if (pruned !== messages) {
      const kept = judge(ctx, messages, pruned, 'summary_too_long', { failure: summary.failure });
      if (kept.changed) return kept;
      return same('summary_too_long', summary.failure);
    }
    ctx.guard.compressionDone(false);
    return same('summary_too_long', summary.failure);
  }
  return same('cancelled', summary.failure);
}

/** Keeps `out` only when it is smaller, and tells the guard whether it was effective. */
function judge(
  ctx: RunContext,
  messages: readonly ChatMessage[],
  out: readonly ChatMessage[],
  outcome: CompressionOutcome,
  extra: Partial<RunResult>,
): RunResult {
  const estimateBefore = estimateTokens(messages);
  const estimateAfter = estimateTokens(out);
  if (estimateAfter >= estimateBefore) {
    ctx.guard.compressionDone(false);
    const failure = 'the compressed conversation was not smaller';
    return { messages, changed: false, outcome: 'no_gain', estimateBefore, estimateAfter, failure };
  }
  const progress = madeProgress(
    { messages: messages.length, tokens: estimateBefore },
    { messages: out.length, tokens: estimateAfter },
  );
  const underThreshold = estimateAfter + ctx.toolSchemaTokens < ctx.thresholdTokens;
  ctx.guard.compressionDone(progress && underThreshold);
  return { ...extra, messages: out, changed: true, outcome, estimateBefore, estimateAfter };
}
