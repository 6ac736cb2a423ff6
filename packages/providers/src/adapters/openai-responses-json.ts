/**
 * A non-streamed Responses answer (a `Response` object) → the stream accumulator, item by item in
 * output order, so observers see the same events as for a stream (one delta per block). The body
 * is read as text and checked here, so an HTML page, plain text or an empty 200 becomes a clear
 * classified error rather than a `TypeError` inside the SDK.
 */
import type { StreamAccumulator } from '../stream/response-builder.js';
import { invalidResponseError } from './openai-errors.js';
import { DeliveredParts, feedCompletedItem } from './openai-responses-items.js';
import {
  isFailedStatus,
  ResponseObjectSchema,
  responsesFailure,
  responsesFinishReason,
  responsesUsageUpdate,
} from './openai-responses-wire.js';
import type { WireIdentity } from './openai-shared.js';

/**
 * Parses `body` as a `Response` and feeds it to `acc`.
 *
 * @throws HermesError `provider.invalid_response` when the body is not a response object.
 * @throws APIError when the response failed or was cancelled (classified from its error object).
 */
export function readResponsesJson(body: string, acc: StreamAccumulator): WireIdentity {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error) {
    throw invalidResponseError('Responses API response', body, error);
  }
  const parsed = ResponseObjectSchema.safeParse(json);
  if (!parsed.success || parsed.data.status === undefined || parsed.data.status === null) {
    throw invalidResponseError('Responses API response', body, parsed.error);
  }
  const response = parsed.data;
  if (isFailedStatus(response.status)) {
    throw responsesFailure(response.error ?? undefined, response.status ?? undefined);
  }
  const delivered = new DeliveredParts();
  let refused = false;
  response.output.forEach((item, outputIndex) => {
    refused = feedCompletedItem(acc, item, outputIndex, delivered) || refused;
  });
  if (response.usage) acc.usage(responsesUsageUpdate(response.usage));
  acc.finish(responsesFinishReason(response, refused));
  return { model: response.model ?? undefined, responseId: response.id ?? undefined };
}
