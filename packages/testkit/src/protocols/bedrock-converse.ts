/**
 * Amazon Bedrock's Converse API (`POST /model/{modelId}/converse` and `/converse-stream`).
 * STUB: being written (issue 23); every call throws until then.
 */
import type { ProtocolEncoder } from './encoder.js';

const notYet = (): never => {
  throw new Error('hermes-testkit: the bedrock-converse encoder is not written yet');
};

/** The Bedrock Converse encoder. */
export const bedrockConverseEncoder: ProtocolEncoder = {
  protocol: 'bedrock-converse',
  json: notYet,
  stream: notYet,
  errorBody: (_status, message) => ({ message }),
};
