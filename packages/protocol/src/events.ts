/**
 * The one event vocabulary the agent loop emits. Apps render it, the gateway streams it, and
 * tests assert on it. Every event carries `type` and the `turnId` it belongs to.
 */
import { z } from 'zod';
import { ApprovalDecisionSchema } from './approval-decision.js';
import { ExitReasonSchema } from './exit-reason.js';
import { UsageSchema } from './usage.js';

const base = { turnId: z.string() };
const count = z.number().int().nonnegative();

/** A turn began: the user's message was accepted and persisted. */
export const TurnStartEventSchema = z.object({
  type: z.literal('turn_start'),
  ...base,
  sessionId: z.string(),
  userMessage: z.string(),
});

/** A turn ended, on any exit path. */
export const TurnEndEventSchema = z.object({
  type: z.literal('turn_end'),
  ...base,
  sessionId: z.string(),
  exitReason: ExitReasonSchema,
  completed: z.boolean(),
  interrupted: z.boolean(),
  failed: z.boolean(),
  apiCalls: count,
  usage: UsageSchema,
});

/** One iteration (one model call and the handling of its reply) began. */
export const IterationStartEventSchema = z.object({
  type: z.literal('iteration_start'),
  ...base,
  iteration: z.number().int().positive(),
  maxIterations: z.number().int().positive(),
});

/** A fragment of the answer text, as streamed. */
export const TextDeltaEventSchema = z.object({
  type: z.literal('text_delta'),
  ...base,
  delta: z.string(),
});

/** A fragment of exposed reasoning, as streamed. */
export const ReasoningDeltaEventSchema = z.object({
  type: z.literal('reasoning_delta'),
  ...base,
  delta: z.string(),
});

/** A tool call is about to run. `arguments` is the JSON text after repair. */
export const ToolCallStartEventSchema = z.object({
  type: z.literal('tool_call_start'),
  ...base,
  toolCallId: z.string(),
  name: z.string(),
  arguments: z.string(),
});

/** A running tool reported progress (output activity, a status line). */
export const ToolCallProgressEventSchema = z.object({
  type: z.literal('tool_call_progress'),
  ...base,
  toolCallId: z.string(),
  name: z.string(),
  message: z.string(),
});

/** A tool call finished, failed, or was cancelled. `preview` is a short, secret-free excerpt. */
export const ToolCallEndEventSchema = z.object({
  type: z.literal('tool_call_end'),
  ...base,
  toolCallId: z.string(),
  name: z.string(),
  outcome: z.enum(['ok', 'error', 'cancelled']),
  durationMs: z.number().nonnegative(),
  preview: z.string(),
});

/** Why compression ran. */
export const CompressionTriggerSchema = z.enum(['preflight', 'threshold', 'overflow', 'manual']);

/** Context compression began. */
export const CompressionStartEventSchema = z.object({
  type: z.literal('compression_start'),
  ...base,
  trigger: CompressionTriggerSchema,
  tokensBefore: count,
  messagesBefore: count,
});

/** Context compression ended, successfully or not. */
export const CompressionEndEventSchema = z.object({
  type: z.literal('compression_end'),
  ...base,
  ok: z.boolean(),
  tokensBefore: count,
  tokensAfter: count,
  messagesBefore: count,
  messagesAfter: count,
  error: z.string().optional(),
  /**
   * What the engine wants the user to know: why a summary was rejected, why the summarizer is
   * backing off, that accuracy may drop after many compressions.
   */
  warnings: z.array(z.string()).optional(),
});

/** A command needs a human ruling. */
export const ApprovalRequestEventSchema = z.object({
  type: z.literal('approval_request'),
  ...base,
  requestId: z.string(),
  command: z.string(),
  reason: z.string(),
  patternKey: z.string().optional(),
});

/**
 * A ruling on an approval request, and who made it: the person, a policy, the timeout, or the
 * smart-approval judge (an auxiliary model; then `command` and `reason` say what it ruled on and
 * why, so hosts can show and log it).
 */
export const ApprovalResolutionEventSchema = z.object({
  type: z.literal('approval_resolution'),
  ...base,
  requestId: z.string(),
  decision: ApprovalDecisionSchema,
  decidedBy: z.enum(['user', 'policy', 'timeout', 'smart']),
  /** The command ruled on (secret-redacted). */
  command: z.string().optional(),
  /** Why, in one line. */
  reason: z.string().optional(),
});

/** Memory was recalled into this turn's context. */
export const MemoryRecallEventSchema = z.object({
  type: z.literal('memory_recall'),
  ...base,
  provider: z.string(),
  chars: count,
});

const providerModel = z.object({ provider: z.string(), model: z.string() });

/** The primary model failed and a fallback took over. */
export const FallbackActivatedEventSchema = z.object({
  type: z.literal('fallback_activated'),
  ...base,
  from: providerModel,
  to: providerModel,
  reason: z.string(),
});

/**
 * A model call failed with a transient error (`code` is `provider.<reason>`, `message` is
 * secret-free) and attempt `attempt + 1` follows after `delayMs`, so a caller can say so
 * instead of going quiet for the whole backoff.
 */
export const ModelRetryEventSchema = z.object({
  type: z.literal('model_retry'),
  ...base,
  attempt: count,
  delayMs: z.number().nonnegative(),
  code: z.string(),
  message: z.string(),
});

/** Something went wrong. `code` is a stable HermesError code; `message` is secret-free. */
export const ErrorEventSchema = z.object({
  type: z.literal('error'),
  ...base,
  code: z.string(),
  message: z.string(),
  retryable: z.boolean(),
});

/** Every event the agent loop emits, discriminated by `type`. */
export const AgentEventSchema = z.discriminatedUnion('type', [
  TurnStartEventSchema,
  TurnEndEventSchema,
  IterationStartEventSchema,
  TextDeltaEventSchema,
  ReasoningDeltaEventSchema,
  ToolCallStartEventSchema,
  ToolCallProgressEventSchema,
  ToolCallEndEventSchema,
  CompressionStartEventSchema,
  CompressionEndEventSchema,
  ApprovalRequestEventSchema,
  ApprovalResolutionEventSchema,
  MemoryRecallEventSchema,
  FallbackActivatedEventSchema,
  ModelRetryEventSchema,
  ErrorEventSchema,
]);
export type AgentEvent = z.infer<typeof AgentEventSchema>;

/** The `type` tags of all agent events. */
export type AgentEventType = AgentEvent['type'];

/** The event with a given `type` tag. */
export type AgentEventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>;

/** Why compression ran. */
export type CompressionTrigger = z.infer<typeof CompressionTriggerSchema>;
