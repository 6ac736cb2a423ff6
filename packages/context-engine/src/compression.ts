/** The compress verb: its options, and what an engine hands back. */
import { ChatMessageSchema } from '@hermes/protocol';
import { z } from 'zod';

/** Options the host may pass to `ContextEngine.compress`. New options are added here over time. */
export interface CompressOptions {
  /** The best known size of `messages` in tokens: real prompt usage when reported, else an estimate. */
  readonly currentTokens?: number;
  /** A topic the summary should favour (`/compress <topic>`). */
  readonly focusTopic?: string;
  /** Compress even below the threshold: a manual `/compress`, or after a context-overflow error. */
  readonly force?: boolean;
  /** What the memory provider extracted before compression (`onPreCompress`), for the summary. */
  readonly memoryContext?: string;
  /** Cancels a summarizer call. Not a basic option: an engine receives it only if it declares it. */
  readonly signal?: AbortSignal;
}

/** The name of one {@link CompressOptions} member. */
export type CompressOptionName = keyof CompressOptions;

/** Every option the host knows of; an engine can declare no others. */
export const KNOWN_COMPRESS_OPTIONS = [
  'currentTokens',
  'focusTopic',
  'force',
  'memoryContext',
  'signal',
] as const satisfies readonly CompressOptionName[];

/**
 * The options an engine accepts unless it declares otherwise: the four that existed when the
 * seam was defined. An engine opts into later ones by overriding `acceptedCompressOptions`.
 */
export const BASIC_COMPRESS_OPTIONS = [
  'currentTokens',
  'focusTopic',
  'force',
  'memoryContext',
] as const satisfies readonly CompressOptionName[];

const count = z.number().int().nonnegative();

/** Sizes before and after one compression (token figures may be estimates). */
export const CompressionStatsSchema = z.object({
  messagesBefore: count,
  messagesAfter: count,
  tokensBefore: count,
  tokensAfter: count,
});
export type CompressionStats = z.infer<typeof CompressionStatsSchema>;

/**
 * What `compress` returns. Engines may be plugins, so hosts can check it with this schema.
 * `changed: false` means "nothing compressed": the host persists nothing and leaves the
 * conversation as it was.
 */
export const CompressionResultSchema = z.object({
  /** The new conversation, original system message first. */
  messages: z.array(ChatMessageSchema),
  /** Whether `messages` differs from the input. */
  changed: z.boolean(),
  stats: CompressionStatsSchema,
  /** The summary text that replaced older messages, when one was written. */
  summary: z.string().optional(),
  /** Messages for the user (for example "compressed N times: accuracy may drop"). */
  warnings: z.array(z.string()).optional(),
});
export type CompressionResult = z.infer<typeof CompressionResultSchema>;
