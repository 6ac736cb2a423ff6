/** Messages in and out of a platform, normalized so the gateway never sees a wire format. */
import type { ChatMessage } from '@hermes/protocol';
import { z } from 'zod';
import type { TurnSink } from './turn-sink.js';

/** Platform names are lower-case words joined by `-` or `_`: `telegram`, `api-server`. */
export const PLATFORM_NAME_PATTERN = /^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$/;

/** A platform's name, as `PlatformAdapter.platform` reports it. */
export const PlatformNameSchema = z
  .string()
  .regex(PLATFORM_NAME_PATTERN, 'platform must be lower-case words joined by "-" or "_"');

const id = (what: string) => z.string().min(1, `${what} must not be empty`);

/** A file that came with a message or goes out with one: a URL, or a path already on disk. */
export const AttachmentSchema = z
  .object({
    kind: z.enum(['image', 'audio', 'video', 'file']),
    /** Where to fetch it. */
    url: z.string().min(1).optional(),
    /** Where it is on this machine (downloaded and cached by the adapter). */
    path: z.string().min(1).optional(),
    mimeType: z.string().min(1).optional(),
    /** The original file name, when the platform gave one. */
    name: z.string().min(1).optional(),
    sizeBytes: z.number().int().nonnegative().optional(),
  })
  .refine((attachment) => attachment.url !== undefined || attachment.path !== undefined, {
    message: 'an attachment needs a url or a path',
    path: ['url'],
  });
export type Attachment = z.infer<typeof AttachmentSchema>;

/** One message a person sent, as every adapter reports it. */
export const InboundMessageSchema = z.object({
  /** The adapter's `platform`. */
  platform: PlatformNameSchema,
  /** The conversation: a DM, group or channel id on the platform. */
  chatId: id('chatId'),
  /** The thread inside the chat, on platforms with threads. */
  threadId: id('threadId').optional(),
  /** The sender's stable id on the platform (used for authorization and pairing). */
  userId: id('userId'),
  /** The sender's display name, when known. */
  userName: z.string().optional(),
  /** The text, with platform mentions of the bot removed. May be empty when only files came. */
  text: z.string(),
  attachments: z.array(AttachmentSchema).optional(),
  /** The platform's id for this message (for replies, edits and de-duplication). */
  messageId: id('messageId'),
  /** When the adapter received it, in milliseconds since the Unix epoch. */
  receivedAt: z.number().int().nonnegative(),
  /** A one-to-one conversation with the bot rather than a group or channel. */
  isDirect: z.boolean(),
});
export type InboundMessage = z.infer<typeof InboundMessageSchema>;

/**
 * Receives each inbound message. Adapters await it and contain what it throws. Chat adapters pass
 * only the message; an adapter that answers over its own channel (the HTTP API) passes an
 * {@link InboundContext} as well.
 */
export type InboundHandler = (
  message: InboundMessage,
  context?: InboundContext,
) => void | Promise<void>;

/** Where a message goes. */
export const SendTargetSchema = z.object({
  chatId: id('chatId'),
  threadId: id('threadId').optional(),
  /** The message this one answers, on platforms that show replies. */
  replyTo: id('replyTo').optional(),
});
export type SendTarget = z.infer<typeof SendTargetSchema>;

/** One message the gateway sends. Its text already fits the platform (see `splitMessage`). */
export const OutboundMessageSchema = z.object({
  text: z.string(),
  /** `markdown` (the default) when the text was passed through `renderMarkdown`. */
  format: z.enum(['markdown', 'plain']).optional(),
  attachments: z.array(AttachmentSchema).optional(),
  /**
   * Delete the message after this many milliseconds, for passing notices such as "thinking…".
   * Platforms that cannot delete ignore it.
   */
  ephemeralTtlMs: z.number().int().positive().optional(),
});
export type OutboundMessage = z.infer<typeof OutboundMessageSchema>;

/** What the platform said about a message it accepted. */
export const SentMessageSchema = z.object({
  /** The platform's id for the message, for later edits and replies. */
  messageId: id('messageId'),
});
export type SentMessage = z.infer<typeof SentMessageSchema>;

/**
 * What an adapter may hand the pipeline beside a message: things that are not part of any wire
 * format and exist only in this process. Chat adapters pass none of it.
 */
export interface InboundContext {
  /**
   * Receives the turn's events, notices and outcome instead of `adapter.send` (an HTTP response
   * being streamed). When present the pipeline sends nothing through the adapter for this message.
   */
  readonly sink?: TurnSink;
  /** Continue this stored session instead of the chat's routed one (`X-Hermes-Session-Id`). */
  readonly sessionId?: string;
  /**
   * The conversation so far as the client sent it (OpenAI chat completions): the turn starts a new
   * session seeded with it, and `message.text` is the last user message.
   */
  readonly history?: readonly ChatMessage[];
  /** Aborting it stops the turn (the client went away). */
  readonly signal?: AbortSignal;
}
