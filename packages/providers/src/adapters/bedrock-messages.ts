/**
 * Hermes' OpenAI-shaped conversation as Bedrock Converse wants it: system prompts apart, and
 * strictly alternating user / assistant turns of content blocks.
 *
 * - System messages → `system` text blocks, in order.
 * - User messages → text and image blocks (a base64 `data:` image becomes bytes; Converse takes
 *   no image URLs, so any other image becomes a short text note).
 * - Assistant messages → replayed reasoning first (signed `thinking` details as
 *   `reasoningContent.reasoningText`, redacted ones as `redactedContent`), then text, then one
 *   `toolUse` block per tool call. A message with no text and no tool call is dropped.
 * - Tool messages → `toolResult` blocks in a user turn.
 * - Consecutive turns of one role are merged (Bedrock requires alternation); in a merged user
 *   turn the tool results come first.
 */
import type {
  ContentBlock,
  ImageFormat,
  Message,
  SystemContentBlock,
  ToolResultContentBlock,
  ToolUseBlock,
} from '@aws-sdk/client-bedrock-runtime';
import type {
  AssistantMessage,
  ChatMessage,
  ContentPart,
  MessageContent,
  ReasoningDetail,
  ToolMessage,
} from '@hermes/protocol';

/** The conversation part of a Converse request. */
export interface BedrockConversation {
  readonly system: SystemContentBlock[];
  readonly messages: Message[];
}

interface Turn {
  readonly role: 'user' | 'assistant';
  readonly content: ContentBlock[];
}

/** The image formats Converse accepts, by the media type a data URL names. */
const IMAGE_FORMATS: Readonly<Record<string, ImageFormat>> = {
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

const DATA_URL = /^data:([^;,]+)((?:;[^;,]*)*),/i;

/** Characters Bedrock allows in a `toolUseId`; other providers' ids may hold more. */
const INVALID_TOOL_ID_CHARS = /[^A-Za-z0-9_-]/g;

/** A tool-use id Bedrock accepts, applied alike to `toolUse` and `toolResult` so they pair up. */
export function bedrockToolId(id: string): string {
  const clean = id.replace(INVALID_TOOL_ID_CHARS, '_');
  return clean === '' ? 'tooluse_empty' : clean;
}

/** A JSON document as the SDK types it (`toolUse.input`, `inputSchema.json`). */
export type BedrockDocument = ToolUseBlock['input'];

/**
 * A tool call's arguments as the JSON object `toolUse.input` must be. A broken string (a
 * leftover of an older transcript: the loop rejects invalid JSON before storing it) or JSON that
 * is not an object is sent as `{}` rather than failing the whole request.
 */
export function bedrockToolInput(args: string): BedrockDocument {
  try {
    const parsed: unknown = JSON.parse(args);
    // Whatever JSON.parse returns is a valid document.
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as BedrockDocument)
      : {};
  } catch {
    return {};
  }
}

/** An image part as an image block, or a text note when Converse cannot take it. */
function imageBlock(url: string): ContentBlock {
  const data = DATA_URL.exec(url);
  if (data !== null) {
    const format = IMAGE_FORMATS[(data[1] ?? '').trim().toLowerCase()];
    const isBase64 = (data[2] ?? '').toLowerCase().split(';').includes('base64');
    if (format !== undefined && isBase64) {
      const bytes = Buffer.from(url.slice(data[0].length), 'base64');
      return { image: { format, source: { bytes } } };
    }
    return { text: `[image omitted: unsupported data URL type ${data[1]}]` };
  }
  return { text: '[image omitted: Bedrock takes only inline (data:) images]' };
}

function partBlocks(part: ContentPart): ContentBlock[] {
  if (part.type === 'text') return part.text === '' ? [] : [{ text: part.text }];
  return [imageBlock(part.image_url.url)];
}

/** A message body as text and image blocks; empty text is dropped (Bedrock rejects it). */
function contentBlocks(content: MessageContent): ContentBlock[] {
  if (typeof content === 'string') return content === '' ? [] : [{ text: content }];
  return content.flatMap(partBlocks);
}

/** Signed reasoning from `reasoning_details`, verbatim; unsigned or foreign details are left out. */
function replayedReasoning(details: readonly ReasoningDetail[] | undefined): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  for (const detail of details ?? []) {
    const { thinking, signature, data } = detail as Record<string, unknown>;
    if (detail.type === 'thinking' && typeof thinking === 'string' && isFilled(signature)) {
      blocks.push({ reasoningContent: { reasoningText: { text: thinking, signature } } });
    } else if (detail.type === 'redacted_thinking' && isFilled(data)) {
      blocks.push({ reasoningContent: { redactedContent: Buffer.from(data, 'base64') } });
    }
  }
  return blocks;
}

function isFilled(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

function assistantTurn(message: AssistantMessage): Turn | undefined {
  const text = message.content === null ? [] : contentBlocks(message.content);
  const visible: ContentBlock[] = [
    ...text.filter((block) => block.text !== undefined),
    ...(message.tool_calls ?? []).map(
      (call): ContentBlock => ({
        toolUse: {
          toolUseId: bedrockToolId(call.id),
          name: call.function.name,
          input: bedrockToolInput(call.function.arguments),
        },
      }),
    ),
  ];
  if (visible.length === 0) return undefined;
  return {
    role: 'assistant',
    content: [...replayedReasoning(message.reasoning_details), ...visible],
  };
}

function toolTurn(message: ToolMessage): Turn {
  const content: ToolResultContentBlock[] = contentBlocks(message.content).map((block) =>
    block.image === undefined ? { text: block.text ?? '' } : { image: block.image },
  );
  return {
    role: 'user',
    content: [
      {
        toolResult: {
          toolUseId: bedrockToolId(message.tool_call_id),
          // An empty result still needs a block: Bedrock rejects an empty content list.
          content: content.length === 0 ? [{ text: '(no output)' }] : content,
        },
      },
    ],
  };
}

function turnOf(message: Exclude<ChatMessage, { role: 'system' }>): Turn | undefined {
  switch (message.role) {
    case 'user': {
      const content = contentBlocks(message.content);
      return content.length === 0 ? undefined : { role: 'user', content };
    }
    case 'assistant':
      return assistantTurn(message);
    case 'tool':
      return toolTurn(message);
  }
}

function toolResultsFirst(blocks: ContentBlock[]): ContentBlock[] {
  const results = blocks.filter((block) => block.toolResult !== undefined);
  if (results.length === 0 || results.length === blocks.length) return blocks;
  return [...results, ...blocks.filter((block) => block.toolResult === undefined)];
}

/** Converts a conversation; never mutates `messages`. */
export function toBedrockConversation(messages: readonly ChatMessage[]): BedrockConversation {
  const system: SystemContentBlock[] = [];
  const turns: Turn[] = [];
  for (const message of messages) {
    if (message.role === 'system') {
      const text = typeof message.content === 'string' ? message.content : '';
      if (text !== '') system.push({ text });
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
