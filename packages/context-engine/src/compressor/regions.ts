/**
 * The protected regions of a compression: a head kept verbatim (system prompt + the first few
 * messages), a tail kept verbatim (chosen by token budget), and the middle between them that
 * the summary replaces.
 */
import type { ChatMessage } from '@hermes/protocol';
import { contentText } from './message-text.js';
import { isSummaryText } from './summary-sections.js';
import { estimateMessageTokens } from './token-estimate.js';
import { groupStartAtOrAfter, groupStartAtOrBefore } from './tool-groups.js';

/** Minimum messages the tail keeps, whatever their size. */
export const TAIL_MIN_MESSAGES = 8;

/** How to carve a conversation. */
export interface RegionOptions {
  /** Messages after the system prompt kept in the head (0 after the first compression). */
  readonly protectFirstN: number;
  /** Token budget of the tail. */
  readonly tailTokens: number;
  /** Minimum messages in the tail. Default {@link TAIL_MIN_MESSAGES}. */
  readonly tailMinMessages?: number;
}

/**
 * The carve: `[0, headEnd)` head, `[headEnd, tailStart)` middle, `[tailStart, length)` tail.
 * `pinnedUser` is the index of the last user message when it lies in the middle: it is carried
 * into the output right before the tail, verbatim, so the latest request is never summarized.
 */
export interface Regions {
  readonly headEnd: number;
  readonly tailStart: number;
  readonly pinnedUser: number | undefined;
}

/** Where the head ends: system prompt + `protectFirstN`, never inside a tool group. */
function headEnd(messages: readonly ChatMessage[], protectFirstN: number): number {
  const system = messages[0]?.role === 'system' ? 1 : 0;
  return groupStartAtOrAfter(messages, Math.min(messages.length, system + protectFirstN));
}

/** Where the tail starts: walk back within the budget (at least the minimum count). */
function tailStart(
  messages: readonly ChatMessage[],
  options: RegionOptions,
  floor: number,
): number {
  const minMessages = options.tailMinMessages ?? TAIL_MIN_MESSAGES;
  let start = messages.length;
  let used = 0;
  while (start > floor) {
    const cost = estimateMessageTokens(messages[start - 1] as ChatMessage);
    const count = messages.length - start;
    if (count >= minMessages && used + cost > options.tailTokens) break;
    used += cost;
    start--;
  }
  // The latest assistant message is always in the tail.
  const lastAssistant = messages.findLastIndex((m) => m.role === 'assistant');
  if (lastAssistant >= floor) start = Math.min(start, lastAssistant);
  return Math.max(floor, groupStartAtOrBefore(messages, start));
}

/**
 * The index of the last message a person wrote, or -1. A summary this engine wrote can carry the
 * user role (roles must alternate) but is never the user's latest request.
 */
export function lastRealUserIndex(messages: readonly ChatMessage[]): number {
  return messages.findLastIndex((m) => m.role === 'user' && !isSummaryText(contentText(m.content)));
}

/** Carves `messages` into head, middle and tail. */
export function findRegions(messages: readonly ChatMessage[], options: RegionOptions): Regions {
  const head = headEnd(messages, options.protectFirstN);
  const tail = tailStart(messages, options, head);
  const lastUser = lastRealUserIndex(messages);
  const pinnedUser = lastUser >= head && lastUser < tail ? lastUser : undefined;
  return { headEnd: head, tailStart: tail, pinnedUser };
}
