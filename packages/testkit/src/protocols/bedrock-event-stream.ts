/**
 * AWS's binary event-stream framing (`application/vnd.amazon.eventstream`), as Bedrock's
 * `ConverseStream` sends it: each event is one message with the headers `:message-type` `event`,
 * `:event-type` the event's name and `:content-type` `application/json`, and the event body's
 * JSON as payload. The framing (prelude, header encoding, both CRC32s) is the official codec's.
 */
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import type { SseFrame } from './encoder.js';

/** The headers of a `ConverseStream` answer. */
export const BEDROCK_STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/vnd.amazon.eventstream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
};

/** One codec serves every stream: it is stateless. */
const codec = new EventStreamCodec(toUtf8, fromUtf8);

/**
 * One event as its bytes on the wire. `frame.event` is the event type (`contentBlockDelta`, …);
 * `frame.data` its body, sent as JSON (a string is sent as is).
 */
export function encodeBedrockEvent(frame: SseFrame): Uint8Array {
  const payload = typeof frame.data === 'string' ? frame.data : JSON.stringify(frame.data);
  return codec.encode({
    headers: {
      ':message-type': { type: 'string', value: 'event' },
      ':event-type': { type: 'string', value: frame.event ?? 'unknown' },
      ':content-type': { type: 'string', value: 'application/json' },
    },
    body: fromUtf8(payload),
  });
}
