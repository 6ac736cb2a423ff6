/**
 * A non-streamed Chat Completions answer → the stream accumulator, so a JSON answer produces the
 * same events (one delta per block) and the same normalized response as a streamed one. The body
 * is read as text and checked here rather than by the SDK, so an HTML page, plain text or an
 * empty body behind a 200 becomes a clear classified error instead of a `TypeError` later.
 */
import type { StreamAccumulator } from '../stream/response-builder.js';
import { feedChatMessage, finalChatReason } from './openai-chat-stream.js';
import { ChatCompletionSchema, chatUsageUpdate, wireReasoningDetails } from './openai-chat-wire.js';
import { invalidResponseError } from './openai-errors.js';
import type { WireIdentity } from './openai-shared.js';

/**
 * Parses `body` as a `chat.completion` and feeds it to `acc`. The reasoning details of the
 * message (OpenRouter) are kept verbatim for replay.
 *
 * @throws HermesError `provider.invalid_response` when the body is not a chat completion.
 */
export function readChatCompletion(body: string, acc: StreamAccumulator): WireIdentity {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error) {
    throw invalidResponseError('chat completion', body, error);
  }
  const parsed = ChatCompletionSchema.safeParse(json);
  const choice = parsed.success ? parsed.data.choices.find((c) => (c.index ?? 0) === 0) : undefined;
  if (!parsed.success || choice === undefined) {
    throw invalidResponseError('chat completion', body, parsed.error);
  }
  const completion = parsed.data;
  const refused = feedChatMessage(acc, choice.message);
  for (const detail of wireReasoningDetails(choice.message.reasoning_details ?? [])) {
    acc.reasoningDetail(detail);
  }
  if (choice.finish_reason) acc.finish(finalChatReason(choice.finish_reason, refused));
  if (completion.usage) acc.usage(chatUsageUpdate(completion.usage));
  return { model: completion.model ?? undefined, responseId: completion.id ?? undefined };
}
