/**
 * Result shapes of the search modes. They reach the model as JSON through the `session_search`
 * tool, so each has a zod schema the tool can use to validate and describe its output.
 */
import { z } from 'zod';
import { SearchHitSchema } from '../../search.js';

const timestamp = z.number().int().nonnegative();

/** A tool call as a transcript shows it: the tool and its raw JSON arguments. */
export const ToolCallViewSchema = z.object({
  name: z.string(),
  arguments: z.string(),
});
export type ToolCallView = z.infer<typeof ToolCallViewSchema>;

/** One stored message as the search modes show it: real text from the database, no rewriting. */
export const MessageViewSchema = z.object({
  id: z.number().int().positive(),
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  /** The text (text parts joined; an image part shows as `[image]`), possibly truncated. */
  content: z.string(),
  /** True when `content` was cut to the caller's `maxContentChars`. */
  truncated: z.boolean(),
  /** The tool of a `tool` row. */
  toolName: z.string().nullable(),
  /** Tool calls of an `assistant` row; empty otherwise. */
  toolCalls: z.array(ToolCallViewSchema),
  createdAt: timestamp,
  /** False for an archived (compacted) row. */
  active: z.boolean(),
});
export type MessageView = z.infer<typeof MessageViewSchema>;

/** A session as a listing shows it. */
export const SessionSummarySchema = z.object({
  id: z.string().min(1),
  /** The platform: `cli`, `telegram`, `cron`, … */
  source: z.string(),
  title: z.string().nullable(),
  model: z.string().nullable(),
  parentSessionId: z.string().nullable(),
  startedAt: timestamp,
  endedAt: timestamp.nullable(),
  endReason: z.string().nullable(),
  archived: z.boolean(),
  /** Stored rows, archived ones included. */
  messageCount: z.number().int().nonnegative(),
  /** Time of the newest row, or the start when there is none. */
  lastActiveAt: timestamp,
  /** The start of the first user message, so a listing says what the session was about. */
  preview: z.string().nullable(),
});
export type SessionSummary = z.infer<typeof SessionSummarySchema>;

/** One session found by discovery, with the context around its best hit. */
export const DiscoveredSessionSchema = z.object({
  /** The session holding the best hit. */
  session: SessionSummarySchema,
  /** The oldest ancestor of that session: its lineage counts once. */
  rootSessionId: z.string().min(1),
  /** The best-ranked hit of the lineage. */
  bestHit: SearchHitSchema,
  /** Hits in this lineage among the ranked candidates. */
  matchCount: z.number().int().positive(),
  /** Messages around the best hit, the hit included, in order. */
  window: z.array(MessageViewSchema),
  /** The first user/assistant messages of the session. */
  firstMessages: z.array(MessageViewSchema),
  /** The last user/assistant messages of the session. */
  lastMessages: z.array(MessageViewSchema),
});
export type DiscoveredSession = z.infer<typeof DiscoveredSessionSchema>;

/** The result of discovery: sessions best first; empty when nothing matched. */
export const DiscoveryResultSchema = z.object({
  query: z.string(),
  sessions: z.array(DiscoveredSessionSchema),
});
export type DiscoveryResult = z.infer<typeof DiscoveryResultSchema>;

/** A window of one session around an anchor message. */
export const ScrollResultSchema = z.object({
  session: SessionSummarySchema,
  anchorMessageId: z.number().int().positive(),
  messages: z.array(MessageViewSchema),
  /** More rows exist before the first one shown. */
  hasEarlier: z.boolean(),
  /** More rows exist after the last one shown. */
  hasLater: z.boolean(),
});
export type ScrollResult = z.infer<typeof ScrollResultSchema>;

/** A whole session in order. */
export const SessionTranscriptSchema = z.object({
  session: SessionSummarySchema,
  messages: z.array(MessageViewSchema),
});
export type SessionTranscript = z.infer<typeof SessionTranscriptSchema>;
