/**
 * `POST /v1/chat/completions` bodies: the schema (what OpenAI clients send; fields we do not use
 * pass through) and the split into the new user message and the conversation before it.
 */
import type { ChatMessage, ContentPart } from '@hermes/protocol';
import { z } from 'zod';
import type { Attachment } from '../../messages.js';
import { ApiError } from './api-error.js';

const TextPartSchema = z.looseObject({ type: z.literal('text'), text: z.string() });
const ImagePartSchema = z.looseObject({
  type: z.literal('image_url'),
  image_url: z.union([
    z.string().min(1),
    z.looseObject({
      url: z.string().min(1),
      detail: z.enum(['auto', 'low', 'high']).optional(),
    }),
  ]),
});
const PartsSchema = z.array(z.discriminatedUnion('type', [TextPartSchema, ImagePartSchema]));
const ContentSchema = z.union([z.string(), PartsSchema]);
type WireContent = z.infer<typeof ContentSchema>;

const ToolCallSchema = z.looseObject({
  id: z.string().min(1),
  type: z.literal('function').optional(),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
});

/** One message as OpenAI clients send it (`developer` is the newer name of `system`). */
export const WireMessageSchema = z.discriminatedUnion('role', [
  z.looseObject({ role: z.enum(['system', 'developer']), content: ContentSchema }),
  z.looseObject({ role: z.literal('user'), content: ContentSchema, name: z.string().optional() }),
  z.looseObject({
    role: z.literal('assistant'),
    content: ContentSchema.nullish(),
    tool_calls: z.array(ToolCallSchema).optional(),
  }),
  z.looseObject({
    role: z.literal('tool'),
    content: ContentSchema,
    tool_call_id: z.string().min(1),
    name: z.string().optional(),
  }),
]);
export type WireMessage = z.infer<typeof WireMessageSchema>;

/** The fields of a chat completion request the server reads. */
export const ChatCompletionRequestSchema = z.looseObject({
  model: z.string().optional(),
  messages: z.array(WireMessageSchema).min(1),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
  /** OpenAI's end-user id: becomes the inbound message's `userId`. */
  user: z.string().trim().min(1).max(256).optional(),
});
export type ChatCompletionRequest = z.infer<typeof ChatCompletionRequestSchema>;

/** The new user message of a request and the conversation the client sent before it. */
export interface UserTurn {
  readonly text: string;
  readonly attachments: readonly Attachment[];
  readonly history: readonly ChatMessage[];
}

function imageUrl(part: z.infer<typeof ImagePartSchema>): {
  url: string;
  detail?: 'auto' | 'low' | 'high';
} {
  const value = part.image_url;
  if (typeof value === 'string') return { url: value };
  return value.detail ? { url: value.url, detail: value.detail } : { url: value.url };
}

/** The text of a content: the string, or the text parts joined by newlines. */
export function contentText(content: WireContent | null | undefined): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

function protocolContent(content: WireContent): string | ContentPart[] {
  if (typeof content === 'string') return content;
  return content.map(
    (part): ContentPart =>
      part.type === 'text'
        ? { type: 'text', text: part.text }
        : { type: 'image_url', image_url: imageUrl(part) },
  );
}

/** One wire message in the protocol's shape. */
export function toChatMessage(message: WireMessage): ChatMessage {
  switch (message.role) {
    case 'system':
    case 'developer':
      return { role: 'system', content: contentText(message.content) };
    case 'user':
      return {
        role: 'user',
        content: protocolContent(message.content),
        ...(message.name ? { name: message.name } : {}),
      };
    case 'assistant': {
      const calls = message.tool_calls?.map((call) => ({
        id: call.id,
        type: 'function' as const,
        function: { name: call.function.name, arguments: call.function.arguments },
      }));
      return {
        role: 'assistant',
        content: message.content == null ? null : protocolContent(message.content),
        ...(calls?.length ? { tool_calls: calls } : {}),
      };
    }
    case 'tool':
      return {
        role: 'tool',
        content: contentText(message.content),
        tool_call_id: message.tool_call_id,
        ...(message.name ? { name: message.name } : {}),
      };
  }
}

/** The images of a user content, as inbound attachments. */
function attachmentsOf(content: WireContent): Attachment[] {
  if (typeof content === 'string') return [];
  return content.flatMap((part): Attachment[] =>
    part.type === 'image_url' ? [{ kind: 'image', url: imageUrl(part).url }] : [],
  );
}

/**
 * Splits `messages` into the new user message (the last one, which must be the user's) and the
 * conversation before it.
 *
 * @throws ApiError 400 when the last message is not a user message.
 */
export function splitUserTurn(messages: readonly WireMessage[], param = 'messages'): UserTurn {
  const last = messages.at(-1);
  if (last?.role !== 'user') {
    throw new ApiError(400, `The last item of '${param}' must be a user message.`, {
      param,
      code: 'invalid_value',
    });
  }
  return {
    text: contentText(last.content),
    attachments: attachmentsOf(last.content),
    history: messages.slice(0, -1).map(toChatMessage),
  };
}
