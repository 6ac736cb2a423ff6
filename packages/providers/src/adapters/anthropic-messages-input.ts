/**
 * Hermes' OpenAI-shaped conversation as the Messages API wants it: the system prompt apart, and
 * strictly alternating user / assistant turns made of content blocks.
 *
 * - System messages → the top-level `system` text blocks, in order.
 * - User messages → text and image blocks.
 * - Assistant messages → replayed thinking blocks first (from `reasoning_details`, verbatim: the
 *   API rejects a conversation whose signed thinking was altered), then text, then one
 *   `tool_use` block per tool call. A message left with no text and no tool call is dropped, also
 *   when it held only thinking (the API rejects a thinking-only assistant turn).
 * - Tool messages → `tool_result` blocks in a user turn.
 * - Consecutive turns of one role are merged into one (the API requires alternation), so a run
 *   of tool messages becomes ONE user message; in a merged user turn the tool results come
 *   first, as the API requires.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type {
  AssistantMessage,
  ChatMessage,
  ReasoningDetail,
  ToolCall,
  ToolMessage,
} from '@hermes/protocol';
import { mediaBlocks, textBlocks, toolResultContent } from './anthropic-content.js';

/** The conversation part of a Messages request. */
export interface AnthropicConversation {
  /** The system prompt as text blocks; empty when there is none. */
  readonly system: Anthropic.TextBlockParam[];
  /** Alternating user / assistant turns. */
  readonly messages: Anthropic.MessageParam[];
}

type Block = Anthropic.ContentBlockParam;
type ReplayBlock = Anthropic.ThinkingBlockParam | Anthropic.RedactedThinkingBlockParam;

/** A turn under construction: its blocks are always an array, so merging can append. */
interface Turn {
  readonly role: 'user' | 'assistant';
  readonly content: Block[];
}

/** Characters Anthropic allows in a tool-use id; other providers' ids may hold more. */
const INVALID_TOOL_ID_CHARS = /[^A-Za-z0-9_-]/g;

/**
 * A tool-call id the API accepts. Applied alike to `tool_use.id` and `tool_result.tool_use_id`,
 * so a call and its result still pair up.
 */
export function anthropicToolId(id: string): string {
  const clean = id.replace(INVALID_TOOL_ID_CHARS, '_');
  return clean === '' ? 'toolu_empty' : clean;
}

/**
 * A tool call's `arguments` as the object `tool_use.input` must be. The loop rejects a call with
 * invalid JSON before it is stored (seed 3.6), so a broken string here is a leftover from an
 * older transcript; like the Python original, it is sent as `{}` rather than failing the whole
 * request. JSON that is not an object (an array, a string) is sent as `{}` for the same reason.
 */
export function toolInputOf(args: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(args);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/**
 * The thinking blocks to send back from an assistant message's `reasoning_details`: `thinking`
 * entries that carry their signature and `redacted_thinking` entries that carry their data,
 * copied field for field. Anything else (an unsigned or foreign detail) cannot be verified by
 * the API and is left out.
 */
export function replayedThinking(details: readonly ReasoningDetail[] | undefined): ReplayBlock[] {
  const blocks: ReplayBlock[] = [];
  for (const detail of details ?? []) {
    const { thinking, signature, data } = detail as Record<string, unknown>;
    if (detail.type === 'thinking' && typeof thinking === 'string' && isFilled(signature)) {
      blocks.push({ type: 'thinking', thinking, signature });
    } else if (detail.type === 'redacted_thinking' && isFilled(data)) {
      blocks.push({ type: 'redacted_thinking', data });
    }
  }
  return blocks;
}

function isFilled(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

function toolUseBlock(call: ToolCall): Anthropic.ToolUseBlockParam {
  return {
    type: 'tool_use',
    id: anthropicToolId(call.id),
    name: call.function.name,
    input: toolInputOf(call.function.arguments),
  };
}

/** The assistant's own text: images are not allowed in an assistant turn. */
function assistantText(message: AssistantMessage): Anthropic.TextBlockParam[] {
  const { content } = message;
  if (content === null) return [];
  return mediaBlocks(content).filter((block) => block.type === 'text');
}

function assistantTurn(message: AssistantMessage): Turn | undefined {
  const visible: Block[] = [
    ...assistantText(message),
    ...(message.tool_calls ?? []).map(toolUseBlock),
  ];
  if (visible.length === 0) return undefined;
  return {
    role: 'assistant',
    content: [...replayedThinking(message.reasoning_details), ...visible],
  };
}

function toolTurn(message: ToolMessage): Turn {
  return {
    role: 'user',
    content: [
      {
        type: 'tool_result',
        tool_use_id: anthropicToolId(message.tool_call_id),
        content: toolResultContent(message.content),
      },
    ],
  };
}

function turnOf(message: Exclude<ChatMessage, { role: 'system' }>): Turn | undefined {
  switch (message.role) {
    case 'user': {
      const content = mediaBlocks(message.content);
      return content.length === 0 ? undefined : { role: 'user', content };
    }
    case 'assistant':
      return assistantTurn(message);
    case 'tool':
      return toolTurn(message);
  }
}

/** Tool results first, everything else after, each group in its original order. */
function toolResultsFirst(blocks: Block[]): Block[] {
  const results = blocks.filter((block) => block.type === 'tool_result');
  if (results.length === 0 || results.length === blocks.length) return blocks;
  return [...results, ...blocks.filter((block) => block.type !== 'tool_result')];
}

/**
 * Converts a conversation. Never mutates `messages`: every block is a new object, so later
 * steps (the cache breakpoints) may annotate them freely.
 */
export function toAnthropicConversation(messages: readonly ChatMessage[]): AnthropicConversation {
  const system: Anthropic.TextBlockParam[] = [];
  const turns: Turn[] = [];
  for (const message of messages) {
    if (message.role === 'system') {
      system.push(...textBlocks(message.content));
      continue;
    }
    const turn = turnOf(message);
    if (turn === undefined) continue;
    const last = turns.at(-1);
    if (last?.role === turn.role) last.content.push(...turn.content);
    else turns.push(turn);
  }
  return {
    system,
    messages: turns.map((turn) => ({
      role: turn.role,
      content: turn.role === 'user' ? toolResultsFirst(turn.content) : turn.content,
    })),
  };
}
