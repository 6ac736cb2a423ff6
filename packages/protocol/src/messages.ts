/**
 * Chat messages in the OpenAI-compatible shape that Hermes uses as its internal lingua franca.
 * Provider adapters translate to and from their wire formats; everything else speaks this.
 */
import { z } from 'zod';

/** A plain text content part. */
export const TextPartSchema = z.object({
  type: z.literal('text'),
  text: z.string(),
});
export type TextPart = z.infer<typeof TextPartSchema>;

/** An image content part: an `https:` URL or a `data:` URL with base64 bytes. */
export const ImagePartSchema = z.object({
  type: z.literal('image_url'),
  image_url: z.object({
    url: z.string().min(1, 'image_url.url must not be empty'),
    detail: z.enum(['auto', 'low', 'high']).optional(),
  }),
});
export type ImagePart = z.infer<typeof ImagePartSchema>;

/** One part of a multi-part message body. */
export const ContentPartSchema = z.discriminatedUnion('type', [TextPartSchema, ImagePartSchema]);
export type ContentPart = z.infer<typeof ContentPartSchema>;

/** A message body: a plain string, or an ordered list of text and image parts. */
export const MessageContentSchema = z.union([z.string(), z.array(ContentPartSchema)]);
export type MessageContent = z.infer<typeof MessageContentSchema>;

/**
 * A tool call as the model emitted it. `arguments` stays the raw JSON string the model wrote:
 * repair and coercion happen later, against the tool's own schema.
 */
export const ToolCallSchema = z.object({
  id: z.string().min(1, 'tool call id must not be empty'),
  type: z.literal('function'),
  function: z.object({
    name: z.string(),
    arguments: z.string(),
  }),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

/**
 * Provider-specific reasoning blocks (Anthropic thinking with its signature, redacted thinking,
 * encrypted Responses reasoning items). Kept verbatim so they can be replayed to the same
 * provider, which rejects a conversation whose signed thinking was altered.
 */
export const ReasoningDetailSchema = z.looseObject({
  type: z.string(),
  text: z.string().optional(),
  signature: z.string().optional(),
  data: z.string().optional(),
  id: z.string().optional(),
  format: z.string().optional(),
});
export type ReasoningDetail = z.infer<typeof ReasoningDetailSchema>;

/** The system prompt. */
export const SystemMessageSchema = z.object({
  role: z.literal('system'),
  content: z.string(),
});
export type SystemMessage = z.infer<typeof SystemMessageSchema>;

/** What the person (or the platform on their behalf) said. */
export const UserMessageSchema = z.object({
  role: z.literal('user'),
  content: MessageContentSchema,
  name: z.string().optional(),
});
export type UserMessage = z.infer<typeof UserMessageSchema>;

/** What the model answered: text, tool calls, or both, plus any reasoning it exposed. */
export const AssistantMessageSchema = z.object({
  role: z.literal('assistant'),
  content: z.union([MessageContentSchema, z.null()]),
  tool_calls: z.array(ToolCallSchema).optional(),
  /** Plain-text reasoning summary, when the provider exposes one. */
  reasoning: z.string().optional(),
  /** Verbatim provider reasoning blocks for faithful replay. */
  reasoning_details: z.array(ReasoningDetailSchema).optional(),
  /** Why the model stopped producing this message. */
  finish_reason: z.string().optional(),
});
export type AssistantMessage = z.infer<typeof AssistantMessageSchema>;

/** The result of one tool call, paired to it by `tool_call_id`. */
export const ToolMessageSchema = z.object({
  role: z.literal('tool'),
  content: MessageContentSchema,
  tool_call_id: z.string().min(1, 'tool_call_id must not be empty'),
  /** The tool's name; some providers require it, and it makes transcripts readable. */
  name: z.string().optional(),
});
export type ToolMessage = z.infer<typeof ToolMessageSchema>;

/** Any message in a conversation, discriminated by `role`. */
export const ChatMessageSchema = z.discriminatedUnion('role', [
  SystemMessageSchema,
  UserMessageSchema,
  AssistantMessageSchema,
  ToolMessageSchema,
]);
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

/** The four message roles. */
export type MessageRole = ChatMessage['role'];
