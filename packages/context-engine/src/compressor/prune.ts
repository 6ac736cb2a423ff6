/**
 * Phase 1 of compression, without any model: dedupe identical tool outputs, replace old tool
 * results with one-line summaries, truncate huge tool-call arguments, keep only the latest
 * images. Messages it does not change keep their identity (the store appends by identity).
 */
import type { ChatMessage, ContentPart, MessageContent, ToolMessage } from '@hermes/protocol';
import { estimateMessageTokens } from './token-estimate.js';
import { indexToolCalls } from './tool-groups.js';
import { summarizeToolResult } from './tool-result-line.js';
import { truncateArguments } from './truncate-arguments.js';

/** Tuning of {@link pruneToolResults}. */
export interface PruneSettings {
  /** Messages at or after this index (the protected tail) keep their tool results whole. */
  readonly protectFrom: number;
  /** Messages before this index (the protected head) are left alone too. Default 0. */
  readonly protectBefore?: number;
  /** Tool-call arguments longer than this are truncated. Default 2,000 characters. */
  readonly maxArgumentChars?: number;
  /** Images kept, counting from the end. Default 3. */
  readonly keepImages?: number;
  /** Tool outputs shorter than this are left alone. Default 300 characters. */
  readonly minResultChars?: number;
}

/** What phase 1 did. */
export interface PruneOutcome {
  /** The pruned list; the input array itself when nothing changed. */
  readonly messages: readonly ChatMessage[];
  readonly reclaimedTokens: number;
  readonly deduplicated: number;
  readonly summarized: number;
  readonly truncatedCalls: number;
  readonly droppedImages: number;
}

const IMAGE_NOTE = '[image omitted by compression: only the latest images are kept]';

/** The text of a tool result, or `undefined` when it holds images. */
function resultText(content: MessageContent): string | undefined {
  if (typeof content === 'string') return content;
  if (content.some((p) => p.type !== 'text')) return undefined;
  return content.map((p) => (p.type === 'text' ? p.text : '')).join('');
}

/** The pass state shared by the steps below. */
interface Pass {
  readonly input: readonly ChatMessage[];
  readonly out: ChatMessage[];
  readonly settings: Required<PruneSettings>;
  counts: { deduplicated: number; summarized: number; truncatedCalls: number; images: number };
}

/** Replaces earlier copies of identical outputs (outside the tail) with a pointer. */
function dedupe(pass: Pass): void {
  const seen = new Set<string>();
  for (let i = pass.out.length - 1; i >= 0; i--) {
    const message = pass.out[i] as ChatMessage;
    if (message.role !== 'tool') continue;
    const text = resultText(message.content);
    if (text === undefined || text.length < pass.settings.minResultChars) continue;
    if (seen.has(text) && i < pass.settings.protectFrom && i >= pass.settings.protectBefore) {
      const name = message.name ?? 'tool';
      pass.out[i] = {
        ...message,
        content: `[${name}] output identical to a later result; omitted`,
      };
      pass.counts.deduplicated++;
    } else {
      seen.add(text);
    }
  }
}

/** Replaces long tool results before the tail with one-line summaries. */
function summarize(pass: Pass): void {
  const calls = indexToolCalls(pass.input);
  for (let i = pass.settings.protectBefore; i < pass.settings.protectFrom; i++) {
    const message = pass.out[i] as ChatMessage;
    if (message.role !== 'tool') continue;
    const text = resultText(message.content);
    if (text === undefined || text.length < pass.settings.minResultChars) continue;
    const line = summarizeToolResult(message.name, calls.get(message.tool_call_id), text);
    pass.out[i] = { ...message, content: line } satisfies ToolMessage;
    pass.counts.summarized++;
  }
}

/** Truncates huge tool-call arguments before the tail. */
function truncateCalls(pass: Pass): void {
  const max = pass.settings.maxArgumentChars;
  for (let i = pass.settings.protectBefore; i < pass.settings.protectFrom; i++) {
    const message = pass.out[i] as ChatMessage;
    if (message.role !== 'assistant' || !message.tool_calls) continue;
    if (!message.tool_calls.some((c) => c.function.arguments.length > max)) continue;
    const toolCalls = message.tool_calls.map((call) => {
      const args = truncateArguments(call.function.arguments, max);
      return args === call.function.arguments
        ? call
        : { ...call, function: { ...call.function, arguments: args } };
    });
    pass.out[i] = { ...message, tool_calls: toolCalls };
    pass.counts.truncatedCalls++;
  }
}

/**
 * Replaces all but the latest `keepImages` image parts with a short note. The last user message
 * is never altered (it must survive verbatim); its images count as kept.
 */
function dropOldImages(pass: Pass): void {
  let kept = 0;
  const lastUser = pass.out.findLastIndex((m) => m.role === 'user');
  for (let i = pass.out.length - 1; i >= 0; i--) {
    const message = pass.out[i] as ChatMessage;
    if (message.role === 'system' || typeof message.content === 'string' || !message.content)
      continue;
    if (i === lastUser) {
      kept += message.content.filter((p) => p.type === 'image_url').length;
      continue;
    }
    let dropped = 0;
    const parts: ContentPart[] = [];
    for (let p = message.content.length - 1; p >= 0; p--) {
      const part = message.content[p] as ContentPart;
      if (part.type === 'image_url' && kept >= pass.settings.keepImages) {
        parts.unshift({ type: 'text', text: IMAGE_NOTE });
        dropped++;
      } else {
        if (part.type === 'image_url') kept++;
        parts.unshift(part);
      }
    }
    if (dropped === 0) continue;
    pass.out[i] = { ...message, content: parts } as ChatMessage;
    pass.counts.images += dropped;
  }
}

/** Runs phase 1 over `messages` without mutating them. */
export function pruneToolResults(
  messages: readonly ChatMessage[],
  settings: PruneSettings,
): PruneOutcome {
  const pass: Pass = {
    input: messages,
    out: messages.slice(),
    settings: {
      maxArgumentChars: 2_000,
      keepImages: 3,
      minResultChars: 300,
      protectBefore: 0,
      ...settings,
    },
    counts: { deduplicated: 0, summarized: 0, truncatedCalls: 0, images: 0 },
  };
  dedupe(pass);
  summarize(pass);
  truncateCalls(pass);
  dropOldImages(pass);
  let reclaimed = 0;
  for (let i = 0; i < messages.length; i++) {
    const before = messages[i] as ChatMessage;
    const after = pass.out[i] as ChatMessage;
    if (before !== after) reclaimed += estimateMessageTokens(before) - estimateMessageTokens(after);
  }
  const { deduplicated, summarized, truncatedCalls, images } = pass.counts;
  const changed = deduplicated + summarized + truncatedCalls + images > 0;
  return {
    messages: changed ? pass.out : messages,
    reclaimedTokens: Math.max(0, reclaimed),
    deduplicated,
    summarized,
    truncatedCalls,
    droppedImages: images,
  };
}
