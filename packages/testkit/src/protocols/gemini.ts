/**
 * Google's Gemini API (`POST /v1beta/models/{model}:generateContent` and
 * `:streamGenerateContent?alt=sse`). STUB: being written (issue 23); every call throws until then.
 */
import type { ProtocolEncoder } from './encoder.js';

const notYet = (): never => {
  throw new Error('hermes-testkit: the gemini encoder is not written yet');
};

/** The Gemini encoder. */
export const geminiEncoder: ProtocolEncoder = {
  protocol: 'gemini',
  json: notYet,
  stream: notYet,
  errorBody: (status, message) => ({ error: { code: status, message, status: 'UNKNOWN' } }),
};
