/** A conversation session as the store keeps it: who, where, which model, lineage and counters. */
import { emptyUsage, UsageSchema } from '@hermes/protocol';
import { z } from 'zod';

const count = z.number().int().nonnegative();
const timestamp = z.number().int().nonnegative();
const nullableText = z.string().nullable();

/**
 * Running totals of one session: the token counters of `Usage` (summed over every model call)
 * plus the store's own tallies. Every counter is present; a new session starts at zero.
 */
export const SessionCountersSchema = UsageSchema.extend({
  /** Rows written by `appendMessages` (the store maintains it). */
  messages: count,
  /** Tool calls inside appended assistant messages (the store maintains it). */
  toolCalls: count,
  /** Model calls made for this session. */
  apiCalls: count,
  /** Estimated spend in US dollars. */
  estimatedCostUsd: z.number().nonnegative(),
  /** Successful context compressions. */
  compressions: count,
});
export type SessionCounters = z.infer<typeof SessionCountersSchema>;

/** Counters with every value at zero. */
export function emptyCounters(): SessionCounters {
  return {
    ...emptyUsage(),
    messages: 0,
    toolCalls: 0,
    apiCalls: 0,
    estimatedCostUsd: 0,
    compressions: 0,
  };
}

/**
 * One session row. Every field is present; unknown values are `null`. Times are milliseconds
 * since the Unix epoch. Read back from storage, so it has a schema.
 */
export const SessionRecordSchema = z.object({
  /** Unique, stable identifier. */
  id: z.string().min(1, 'session id must not be empty'),
  /** Where the session came from: `cli`, `telegram`, `cron`, `api`, a plugin platform, … */
  source: z.string().min(1, 'session source must not be empty'),
  /** The platform's id of the person, when known. */
  userId: nullableText,
  /** The gateway's routing key that maps incoming messages to this session. */
  sessionKey: nullableText,
  /** The platform's chat (channel, DM) id. */
  chatId: nullableText,
  /** The platform's thread id inside the chat. */
  threadId: nullableText,
  /** A short human title. */
  title: nullableText,
  /** The model in use (the latest, when it changed). */
  model: nullableText,
  /** The provider in use. */
  provider: nullableText,
  /** Hash of the system prompt, a key into the stored system prompts. */
  systemPromptHash: nullableText,
  /** The session this one continues (compression into a child, `/new` with carry-over, …). */
  parentSessionId: nullableText,
  /** When the session was created. */
  startedAt: timestamp,
  /** When it ended; `null` while open. */
  endedAt: timestamp.nullable(),
  /** Why it ended (`user_exit`, `reset`, `expired`, `compression`, …); `null` while open. */
  endReason: nullableText,
  /** Hidden from listings; its messages stay readable and searchable. */
  archived: z.boolean(),
  /** Until when automatic compression is paused after failures; `null` when not paused. */
  compressionCooldownUntil: timestamp.nullable(),
  /** Consecutive failed or ineffective compressions (the context engine's breaker input). */
  compressionFailureStreak: count,
  /** Running totals. */
  counters: SessionCountersSchema,
});
export type SessionRecord = z.infer<typeof SessionRecordSchema>;

/** What the caller knows when a session starts; everything but `source` is optional. */
export interface SessionInit {
  /** Use this id instead of a generated one; creating a second session with it fails. */
  readonly id?: string;
  readonly source: string;
  readonly userId?: string;
  readonly sessionKey?: string;
  readonly chatId?: string;
  readonly threadId?: string;
  readonly title?: string;
  readonly model?: string;
  readonly provider?: string;
  readonly systemPromptHash?: string;
  readonly parentSessionId?: string;
  /** Creation time; default now. */
  readonly startedAt?: number;
}

/** Fields of a session that may be changed after creation; absent keys stay as they are. */
export type SessionPatch = Partial<
  Pick<
    SessionRecord,
    | 'userId'
    | 'sessionKey'
    | 'chatId'
    | 'threadId'
    | 'title'
    | 'model'
    | 'provider'
    | 'systemPromptHash'
    | 'archived'
    | 'compressionCooldownUntil'
    | 'compressionFailureStreak'
  >
>;

/** Amounts to add to a session's counters; absent keys add nothing. */
export type CounterDelta = Partial<SessionCounters>;

/** Filters of `SessionStore.listSessions`. */
export interface ListSessionsOptions {
  readonly source?: string;
  readonly userId?: string;
  readonly sessionKey?: string;
  readonly parentSessionId?: string;
  /** Include archived sessions. Default `false`. */
  readonly includeArchived?: boolean;
  /** At most this many, newest first. Default: all. */
  readonly limit?: number;
}
