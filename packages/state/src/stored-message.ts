/** A message as written to and read back from the session store. */
import {
  type ChatMessage,
  ChatMessageSchema,
  type FinishReason,
  FinishReasonSchema,
  type MessageContent,
  MessageContentSchema,
} from '@hermes/protocol';
import { z } from 'zod';

/**
 * One message row. `active` rows form the conversation the model sees; compaction turns old rows
 * into `active: false, compacted: true` and never deletes them, so they stay searchable.
 */
export const StoredMessageSchema = z.object({
  /** Store-assigned, strictly increasing in the order rows were written. */
  id: z.number().int().positive(),
  sessionId: z.string().min(1),
  /** The message exactly as appended (tool calls, reasoning fields and all). */
  message: ChatMessageSchema,
  /**
   * The content exactly as it was sent to the provider when it differs from `message.content`
   * (recalled memory, expanded skills), so a replay keeps the provider's prefix cache.
   */
  apiContent: MessageContentSchema.nullable(),
  /** Normalized finish reason of an assistant message. */
  finishReason: FinishReasonSchema.nullable(),
  /** Token count of this message, when known. */
  tokenCount: z.number().int().nonnegative().nullable(),
  /** The platform's id of this message (for edits, replies, delivery tracking). */
  platformMessageId: z.string().nullable(),
  /** When the row was written, in milliseconds since the Unix epoch. */
  createdAt: z.number().int().nonnegative(),
  /** Part of the current conversation. */
  active: z.boolean(),
  /** Archived by a compaction. */
  compacted: z.boolean(),
});
export type StoredMessage = z.infer<typeof StoredMessageSchema>;

/** A message to append together with its sidecar facts. */
export interface AppendMessageInput {
  readonly message: ChatMessage;
  readonly apiContent?: MessageContent;
  readonly finishReason?: FinishReason;
  readonly tokenCount?: number;
  readonly platformMessageId?: string;
  /** Write time; default now. */
  readonly createdAt?: number;
}

/** What `appendMessages` accepts: a bare message, or a message with sidecar facts. */
export type AppendableMessage = ChatMessage | AppendMessageInput;

/**
 * The {@link AppendMessageInput} form of either accepted shape. Its `message` is the object that
 * identifies the message for idempotent appends.
 */
export function toAppendInput(item: AppendableMessage): AppendMessageInput {
  return 'role' in item ? { message: item } : item;
}

/** Options of `SessionStore.getMessages`. */
export interface GetMessagesOptions {
  /** Also return archived (inactive) rows. Default `false`. */
  readonly includeInactive?: boolean;
}
