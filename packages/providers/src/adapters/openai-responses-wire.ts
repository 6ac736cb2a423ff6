/**
 * What the Responses API sends back, checked with zod: output items, the `Response` object that
 * closes a stream or forms a JSON answer, its usage and end state. Fields are optional and a
 * field of the wrong type reads as absent, so an event or item Hermes cannot use is skipped.
 */
import type { FinishReason } from '@hermes/protocol';
import { z } from 'zod';
import type { UsageUpdate } from '../stream/usage-update.js';

const text = z.string().nullish().catch(undefined);
const count = z.number().nullish().catch(undefined);

/** A `message` output item: output text and refusal parts. */
export const MessageItemSchema = z.object({
  type: z.literal('message'),
  id: text,
  content: z.array(z.object({ type: z.string(), text: text, refusal: text })).catch([]),
});

/** A `function_call` output item. */
export const FunctionCallItemSchema = z.object({
  type: z.literal('function_call'),
  id: text,
  call_id: z.string().min(1),
  name: z.string(),
  arguments: z.string().catch(''),
});

/** A `reasoning` output item: summary parts, raw reasoning text (open models), encrypted state. */
export const ReasoningItemSchema = z.object({
  type: z.literal('reasoning'),
  id: text,
  summary: z.array(z.object({ type: z.string(), text: z.string() })).catch([]),
  content: z
    .array(z.object({ type: z.string(), text: z.string() }))
    .nullish()
    .catch(undefined),
  encrypted_content: text,
});

/** Any output item Hermes reads. */
export const OutputItemSchema = z.discriminatedUnion('type', [
  MessageItemSchema,
  FunctionCallItemSchema,
  ReasoningItemSchema,
]);
export type OutputItem = z.infer<typeof OutputItemSchema>;

/** Responses usage: cached (and, on some servers, written) tokens are inside `input_tokens`. */
export const ResponsesUsageSchema = z.object({
  input_tokens: count,
  output_tokens: count,
  input_tokens_details: z
    .object({ cached_tokens: count, cache_write_tokens: count })
    .nullish()
    .catch(undefined),
  output_tokens_details: z.object({ reasoning_tokens: count }).nullish().catch(undefined),
});
export type ResponsesUsage = z.infer<typeof ResponsesUsageSchema>;

/** The service's error object of a failed response or an `error` event. */
export const ResponsesErrorSchema = z.object({
  code: text,
  message: text,
  type: text,
  param: text,
});
export type ResponsesErrorObject = z.infer<typeof ResponsesErrorSchema>;

/** The `Response` object: a JSON answer, or what a stream's last event carries. */
export const ResponseObjectSchema = z.object({
  id: text,
  model: text,
  status: text,
  output: z.array(z.unknown()).catch([]),
  usage: ResponsesUsageSchema.nullish().catch(undefined),
  incomplete_details: z.object({ reason: text }).nullish().catch(undefined),
  error: ResponsesErrorSchema.nullish().catch(undefined),
});
export type ResponseObject = z.infer<typeof ResponseObjectSchema>;

/** The usage counters of a Responses usage block (fresh input excludes cache reads and writes). */
export function responsesUsageUpdate(usage: ResponsesUsage): UsageUpdate {
  const cached = Math.max(0, usage.input_tokens_details?.cached_tokens ?? 0);
  const written = Math.max(0, usage.input_tokens_details?.cache_write_tokens ?? 0);
  const input = usage.input_tokens;
  return {
    inputTokens: typeof input === 'number' ? Math.max(0, input - cached - written) : undefined,
    outputTokens: usage.output_tokens,
    cacheReadTokens: cached,
    cacheWriteTokens: written,
    reasoningTokens: usage.output_tokens_details?.reasoning_tokens,
  };
}

/**
 * The normalized finish reason of a finished response: `completed` is a stop (the accumulator
 * turns it into `tool_calls` when there were calls) or a refusal; `incomplete` for the output
 * limit is `length`, for the content filter `content_filter`.
 */
export function responsesFinishReason(response: ResponseObject, refused: boolean): FinishReason {
  if (response.status === 'completed') return refused ? 'refusal' : 'stop';
  if (response.status === 'incomplete') {
    const reason = response.incomplete_details?.reason;
    if (reason === 'max_output_tokens') return 'length';
    if (reason === 'content_filter') return 'content_filter';
  }
  return 'unknown';
}

/**
 * The error for a failed or cancelled response (`response.failed`, an `error` event, a JSON
 * answer with status `failed`): an error carrying the service's error object the way the SDK's
 * `APIError` does for an error inside a stream, so the classifier reads its code and message.
 */
export function responsesFailure(
  error: ResponsesErrorObject | undefined,
  status?: string,
): ResponsesFailureError {
  const message =
    error?.message ?? `The response ended with status ${status ?? 'failed'} and no error message.`;
  const body = { message, code: error?.code ?? null, type: error?.type ?? null, param: null };
  return new ResponsesFailureError(message, body);
}

/**
 * A failed response, shaped like the SDK's `APIError` (the error object in `.error`, no HTTP
 * status) so the classifier reads it the same way, without importing the SDK eagerly.
 */
export class ResponsesFailureError extends Error {
  /** The service's error object. */
  readonly error: Readonly<Record<string, unknown>>;
  readonly status: undefined = undefined;
  readonly code: unknown;
  readonly type: unknown;

  constructor(message: string, body: Readonly<Record<string, unknown>>) {
    super(message);
    this.name = 'ResponsesFailureError';
    this.error = body;
    this.code = body.code;
    this.type = body.type;
  }
}

/** Whether `status` means the response produced no answer. */
export function isFailedStatus(status: string | null | undefined): boolean {
  return status === 'failed' || status === 'cancelled';
}
