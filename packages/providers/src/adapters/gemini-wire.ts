/**
 * The parts of Gemini's `GenerateContentResponse` (one per stream frame, or the whole
 * non-streamed answer) and of its error body that the adapter reads. Both are outside input:
 * checked with zod, leniently — unknown fields pass, a counter of the wrong type is dropped, and
 * only a shape the reader cannot use at all fails.
 */
import { z } from 'zod';

const count = z.number().int().nonnegative().optional().catch(undefined);
const optString = z.string().optional().catch(undefined);

/** A function call: Gemini sends the arguments parsed, and (on most models) no id. */
export const WireFunctionCallSchema = z.looseObject({
  name: z.string(),
  args: z.record(z.string(), z.unknown()).nullish().catch(undefined),
  id: optString,
});

/** One part of a candidate's content: text, a thought (`thought: true`), or a function call. */
export const WirePartSchema = z.looseObject({
  text: optString,
  thought: z.boolean().optional().catch(undefined),
  thoughtSignature: optString,
  functionCall: WireFunctionCallSchema.optional(),
});
export type WirePart = z.infer<typeof WirePartSchema>;

/** One candidate answer; Hermes asks for one and reads the first. */
export const WireCandidateSchema = z.looseObject({
  content: z.looseObject({ parts: z.array(WirePartSchema).nullish() }).nullish(),
  finishReason: optString,
  finishMessage: optString,
});

/** `usageMetadata`; the prompt count includes cached tokens, the candidates count excludes thoughts. */
export const WireUsageSchema = z.looseObject({
  promptTokenCount: count,
  candidatesTokenCount: count,
  totalTokenCount: count,
  cachedContentTokenCount: count,
  thoughtsTokenCount: count,
  toolUsePromptTokenCount: count,
});
export type WireUsage = z.infer<typeof WireUsageSchema>;

/** One `GenerateContentResponse`. */
export const WireResponseSchema = z.looseObject({
  candidates: z.array(WireCandidateSchema).nullish(),
  promptFeedback: z
    .looseObject({ blockReason: optString, blockReasonMessage: optString })
    .nullish()
    .catch(undefined),
  usageMetadata: WireUsageSchema.nullish().catch(undefined),
  modelVersion: optString,
  responseId: optString,
});
export type WireResponse = z.infer<typeof WireResponseSchema>;

/** One entry of `error.details` (`google.rpc.RetryInfo`, `ErrorInfo`, `QuotaFailure`, …). */
const WireErrorDetailSchema = z.looseObject({
  '@type': optString,
  /** RetryInfo: how long to wait, as a protobuf duration (`"39s"`, `"1.5s"`). */
  retryDelay: optString,
  /** ErrorInfo: the machine-readable reason (`API_KEY_INVALID`). */
  reason: optString,
});

/** Gemini's error body: `{"error": {"code": 429, "message": …, "status": "RESOURCE_EXHAUSTED"}}`. */
export const WireErrorBodySchema = z.object({
  error: z.looseObject({
    code: z.number().int().optional().catch(undefined),
    message: optString,
    status: optString,
    details: z.array(z.unknown()).optional().catch(undefined),
  }),
});
export type WireErrorBody = z.infer<typeof WireErrorBodySchema>;

/** The readable entries of an error's `details`; malformed entries are skipped. */
export function errorDetails(body: WireErrorBody): z.infer<typeof WireErrorDetailSchema>[] {
  return (body.error.details ?? []).flatMap((entry) => {
    const parsed = WireErrorDetailSchema.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}
