/**
 * A non-streamed answer (the `Message` JSON) read through the same {@link AnthropicStreamReader}
 * as a stream: each content block is replayed as a start carrying the whole block followed by its
 * stop, so text, thinking with its signature, redacted thinking and tool calls come out exactly
 * as they would streamed, and `onEvent` observers see the same event shapes (one delta a block).
 */
import { AnthropicProtocolError } from './anthropic-errors.js';
import type { AnthropicStreamReader } from './anthropic-stream-reader.js';
import { WireMessageSchema } from './anthropic-wire.js';

function describe(body: unknown): string {
  if (body === undefined || body === null || body === '') return 'an empty body';
  if (typeof body === 'string') return 'a body that is not JSON';
  return 'JSON that is not a Message';
}

/**
 * Feeds `body` (what the SDK parsed from the response) to `reader`.
 *
 * @throws AnthropicProtocolError when `body` is not a `Message` (an empty body, text, or JSON of
 * another shape).
 */
export function readMessageBody(reader: AnthropicStreamReader, body: unknown): void {
  const parsed = WireMessageSchema.safeParse(body);
  if (!parsed.success) {
    throw new AnthropicProtocolError(
      `The Anthropic API answered a non-streamed request with ${describe(body)} instead of a Message.`,
    );
  }
  const message = parsed.data;
  reader.apply({
    type: 'message_start',
    message: {
      ...(message.id === undefined ? {} : { id: message.id }),
      ...(message.model === undefined ? {} : { model: message.model }),
      usage: message.usage,
    },
  });
  message.content.forEach((block, index) => {
    reader.apply({ type: 'content_block_start', index, content_block: block });
    reader.apply({ type: 'content_block_stop', index });
  });
  reader.apply({
    type: 'message_delta',
    delta: { stop_reason: message.stop_reason },
    usage: message.usage,
  });
  reader.apply({ type: 'message_stop' });
}
