/**
 * A script: the queue of turns the scripted model server answers with. Written as JSON (a file
 * for `hermes-testkit serve --script`) or built in code with {@link ScriptBuilder}. Parsed with
 * zod, so a bad script fails with an error naming the offending path.
 */
import { z } from 'zod';

/** The wire protocols the server speaks. */
export const WireProtocolSchema = z.enum([
  'openai-chat',
  'openai-responses',
  'anthropic-messages',
  'bedrock-converse',
  'gemini',
]);
export type WireProtocol = z.infer<typeof WireProtocolSchema>;

/** Token usage the server reports for a turn. Missing counters are 0. */
export const ScriptUsageSchema = z.strictObject({
  inputTokens: z.number().int().nonnegative().default(0),
  outputTokens: z.number().int().nonnegative().default(0),
  cacheReadTokens: z.number().int().nonnegative().default(0),
  cacheWriteTokens: z.number().int().nonnegative().default(0),
  reasoningTokens: z.number().int().nonnegative().default(0),
});
export type ScriptUsage = z.infer<typeof ScriptUsageSchema>;

/** One tool call the model makes. `arguments` is sent verbatim when a string (may be broken JSON). */
export const ScriptToolCallSchema = z.strictObject({
  id: z.string().min(1).optional(),
  name: z.string().min(1),
  arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).default({}),
});
export type ScriptToolCall = z.infer<typeof ScriptToolCallSchema>;
/** A tool call as written by hand, before defaults are applied. */
export type ScriptToolCallInput = z.input<typeof ScriptToolCallSchema>;

/** How a streamed turn is cut into chunks. */
export const ChunkingSchema = z.strictObject({
  /** Characters of text or reasoning per delta. Default 8. */
  textChunkSize: z.number().int().positive().default(8),
  /** Characters of tool-call arguments per delta. Default 6. */
  argumentsChunkSize: z.number().int().positive().default(6),
  /** Interleave the argument fragments of several tool calls (OpenAI chat: by index). */
  interleaveToolCalls: z.boolean().default(true),
});
export type Chunking = z.infer<typeof ChunkingSchema>;

/** How one protocol words an HTTP fault; see the `byProtocol` field of an `http` fault. */
export const HttpFaultWordingSchema = z.strictObject({
  message: z.string().optional(),
  errorType: z.string().optional(),
  errorCode: z.string().optional(),
});
export type HttpFaultWording = z.infer<typeof HttpFaultWordingSchema>;

/** Something going wrong instead of (or in the middle of) an answer. */
export const FaultSchema = z.discriminatedUnion('kind', [
  /** An HTTP error response. A string body is sent as is; an object as JSON; absent → the protocol's own error shape. */
  z.strictObject({
    kind: z.literal('http'),
    status: z.number().int().min(400).max(599),
    message: z.string().optional(),
    body: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
    headers: z.record(z.string(), z.string()).default({}),
    /** The protocol-level error type/code (e.g. `rate_limit_error`, `context_length_exceeded`). */
    errorType: z.string().optional(),
    errorCode: z.string().optional(),
    /**
     * Per-protocol overrides of `message`, `errorType` and `errorCode`, for errors each service
     * words differently (context length: OpenAI's "maximum context length is …" vs Anthropic's
     * "prompt is too long: …"). A field given here wins for requests on that protocol.
     */
    byProtocol: z.partialRecord(WireProtocolSchema, HttpFaultWordingSchema).optional(),
  }),
  /** Status 200 and headers, then `afterChunks` stream chunks (default 0), then silence forever. */
  z.strictObject({
    kind: z.literal('stall'),
    afterChunks: z.number().int().nonnegative().default(0),
  }),
  /** The socket is destroyed after `afterChunks` stream chunks. */
  z.strictObject({ kind: z.literal('disconnect'), afterChunks: z.number().int().nonnegative() }),
  /** A raw response: malformed SSE, an HTML error page, a 200 with a non-JSON body, an empty body. */
  z.strictObject({
    kind: z.literal('raw'),
    status: z.number().int().min(100).max(599).default(200),
    contentType: z.string().default('text/plain'),
    body: z.string(),
  }),
]);
export type Fault = z.infer<typeof FaultSchema>;

/** Which requests a turn answers. All given fields must match; an empty matcher matches all. */
export const MatcherSchema = z.strictObject({
  protocol: WireProtocolSchema.optional(),
  model: z.string().optional(),
  /** The last user message's text contains this. */
  lastUserIncludes: z.string().optional(),
  /**
   * The system prompt contains this: answers a side request (a title, a judge, a summary) by
   * its instructions, whenever it arrives among the conversation's own requests.
   */
  systemIncludes: z.string().optional(),
  /** The request asks to stream (`true`) or not (`false`). */
  stream: z.boolean().optional(),
});
export type Matcher = z.infer<typeof MatcherSchema>;

/** One scripted answer. */
export const ScriptTurnSchema = z.strictObject({
  match: MatcherSchema.optional(),
  reasoning: z.string().optional(),
  /** Anthropic thinking signature; a default one is generated when reasoning is given. */
  reasoningSignature: z.string().optional(),
  text: z.string().optional(),
  toolCalls: z.array(ScriptToolCallSchema).default([]),
  usage: ScriptUsageSchema.optional(),
  /** Overrides the finish reason derived from the content (`tool_calls` when there are calls, else `stop`). */
  finishReason: z.enum(['stop', 'tool_calls', 'length', 'content_filter']).optional(),
  /** The model name reported back; defaults to the requested model. */
  model: z.string().optional(),
  chunking: ChunkingSchema.optional(),
  /** Delay before each stream chunk (and before a JSON answer), in ms. */
  delayMs: z.number().int().nonnegative().default(0),
  fault: FaultSchema.optional(),
  /** Answer this turn this many times before it leaves the queue (e.g. a fault repeated). Default 1. */
  times: z.number().int().positive().default(1),
});
export type ScriptTurn = z.infer<typeof ScriptTurnSchema>;
/** A turn as written by hand, before defaults are applied. */
export type ScriptTurnInput = z.input<typeof ScriptTurnSchema>;

/** A whole script. */
export const ScriptSchema = z.strictObject({
  turns: z.array(ScriptTurnSchema),
  /** Models listed by `GET /v1/models`. */
  models: z.array(z.string()).default(['scripted-model']),
});
export type Script = z.infer<typeof ScriptSchema>;
export type ScriptInput = z.input<typeof ScriptSchema>;
/** A fault as written by hand, before defaults are applied. */
export type FaultInput = z.input<typeof FaultSchema>;
