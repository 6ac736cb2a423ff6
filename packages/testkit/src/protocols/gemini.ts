/**
 * Google's Gemini API (`POST /v1beta/models/{model}:generateContent` and
 * `:streamGenerateContent?alt=sse`): a scripted turn as one `GenerateContentResponse`, or as a
 * series of them, one per SSE frame. Gemini's frames carry no `event:` name and the stream has
 * no `[DONE]`: it simply ends after the frame holding the finish reason. Frames end in CRLF
 * pairs, as the real service sends them, so clients that split on `\n\n` alone are caught.
 */
import type { ScriptToolCall, ScriptTurn } from '../script.js';
import type { EncodeContext, ProtocolEncoder, SseFrame } from './encoder.js';
import { finishReasonOf, resolveChunking, resolveUsage, splitText } from './turn-parts.js';

/** One part of a candidate's content, as Gemini spells it. */
type Part =
  | { text: string; thought?: true; thoughtSignature?: string }
  | { functionCall: { name: string; args: unknown }; thoughtSignature?: string };

/** Gemini's `finishReason` for each scripted one; tool calls finish with STOP, as the API does. */
const FINISH_REASONS: Readonly<Record<NonNullable<ScriptTurn['finishReason']>, string>> = {
  stop: 'STOP',
  tool_calls: 'STOP',
  length: 'MAX_TOKENS',
  content_filter: 'SAFETY',
};

/** The `google.rpc.Code` name Gemini sends in `error.status` with each HTTP status. */
const STATUS_NAMES: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  413: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'NOT_IMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** The rating a SAFETY stop comes with: the category that tripped, marked blocked. */
const BLOCKED_RATING = {
  category: 'HARM_CATEGORY_DANGEROUS_CONTENT',
  probability: 'HIGH',
  blocked: true,
} as const;

/**
 * A tool call's `args` object. Gemini sends arguments as a parsed object, never as text, so a
 * scripted string that is not a JSON object (broken JSON, say) cannot be reproduced: it becomes `{}`.
 */
function callArgs(call: ScriptToolCall): unknown {
  if (typeof call.arguments !== 'string') return call.arguments;
  try {
    const parsed: unknown = JSON.parse(call.arguments);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/**
 * Every part of the turn, in the order Gemini sends them: thoughts, text, function calls, each
 * text cut to `textSize` characters (`Infinity` for the whole text in one part). A scripted
 * signature rides on the first function call, or else on the last part, where Gemini puts it.
 */
function partsOf(turn: ScriptTurn, textSize: number): Part[] {
  const cut = (text: string): string[] =>
    Number.isFinite(textSize) ? splitText(text, textSize) : text === '' ? [] : [text];
  const parts: Part[] = [
    ...cut(turn.reasoning ?? '').map((text): Part => ({ text, thought: true })),
    ...cut(turn.text ?? '').map((text): Part => ({ text })),
  ];
  const calls = turn.toolCalls.map(
    (call): Part => ({ functionCall: { name: call.name, args: callArgs(call) } }),
  );
  const signature = turn.reasoningSignature;
  if (signature !== undefined) {
    const carrier = calls[0] ?? parts.at(-1);
    if (carrier !== undefined) carrier.thoughtSignature = signature;
  }
  return [...parts, ...calls];
}

/**
 * `usageMetadata`: Gemini's prompt count includes cached tokens (Hermes' cache writes are fresh
 * input to Gemini, which reports no writes); its candidates count excludes the thoughts.
 */
function usageMetadata(turn: ScriptTurn): Record<string, number> {
  const usage = resolveUsage(turn);
  const prompt = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  const thoughts = Math.min(usage.reasoningTokens, usage.outputTokens);
  const candidates = usage.outputTokens - thoughts;
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: candidates,
    totalTokenCount: prompt + candidates + thoughts,
    ...(usage.cacheReadTokens > 0 ? { cachedContentTokenCount: usage.cacheReadTokens } : {}),
    ...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}),
  };
}

/** One `GenerateContentResponse`; `end` adds the finish reason and the usage. */
function response(
  turn: ScriptTurn,
  context: EncodeContext,
  parts: readonly Part[] | undefined,
  end: boolean,
): Record<string, unknown> {
  const finishReason = FINISH_REASONS[finishReasonOf(turn)];
  const candidate: Record<string, unknown> = {
    ...(parts === undefined ? {} : { content: { role: 'model', parts } }),
    ...(end ? { finishReason } : {}),
    ...(end && finishReason === 'SAFETY' ? { safetyRatings: [BLOCKED_RATING] } : {}),
    index: 0,
  };
  return {
    candidates: [candidate],
    ...(end ? { usageMetadata: usageMetadata(turn) } : {}),
    modelVersion: turn.model ?? context.model,
    responseId: context.responseId,
  };
}

/**
 * The stream: one frame per part, the finish reason and usage riding on the last one. A SAFETY
 * stop ends with a frame of its own without content, as the service cuts a blocked answer off.
 */
function streamFrames(turn: ScriptTurn, context: EncodeContext): SseFrame[] {
  const parts = partsOf(turn, resolveChunking(turn).textChunkSize);
  const blocked = FINISH_REASONS[finishReasonOf(turn)] === 'SAFETY';
  const frames = parts.map((part) => ({ data: response(turn, context, [part], false) }));
  const last = frames.length - 1;
  if (blocked || last < 0) {
    const emptyText = blocked ? undefined : [{ text: '' }];
    frames.push({ data: response(turn, context, emptyText, true) });
  } else {
    frames[last] = { data: response(turn, context, [parts[last] as Part], true) };
  }
  return frames;
}

/** The whole answer: every part in one candidate, each text whole. */
function jsonBody(turn: ScriptTurn, context: EncodeContext): unknown {
  const parts = partsOf(turn, Number.POSITIVE_INFINITY);
  return response(turn, context, parts.length === 0 ? [{ text: '' }] : parts, true);
}

/** The `error.status` for a status the table does not name: client error or server error. */
function statusNameFor(status: number): string {
  return STATUS_NAMES[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION');
}

/** The Gemini wire protocol. */
export const geminiEncoder: ProtocolEncoder = {
  protocol: 'gemini',
  json: jsonBody,
  stream: streamFrames,
  // `type` is the `google.rpc.Code` name; Gemini has no separate code string beside it.
  errorBody: (status, message, type) => ({
    error: { code: status, message, status: type ?? statusNameFor(status) },
  }),
  formatFrame: (frame) =>
    `data: ${typeof frame.data === 'string' ? frame.data : JSON.stringify(frame.data)}\r\n\r\n`,
};
