/**
 * The encoder registry: which {@link ProtocolEncoder} speaks each {@link WireProtocol}. The server
 * looks encoders up here and nowhere else, so a protocol is added by adding one entry.
 */
import type { WireProtocol } from '../script.js';
import { anthropicMessagesEncoder } from './anthropic-messages.js';
import { bedrockConverseEncoder } from './bedrock-converse.js';
import type { ProtocolEncoder } from './encoder.js';
import { geminiEncoder } from './gemini.js';
import { openaiChatEncoder } from './openai-chat.js';
import { openaiResponsesEncoder } from './openai-responses.js';

/** Every wire protocol's encoder, by protocol. */
export const protocolEncoders: Readonly<Record<WireProtocol, ProtocolEncoder>> = {
  'openai-chat': openaiChatEncoder,
  'openai-responses': openaiResponsesEncoder,
  'anthropic-messages': anthropicMessagesEncoder,
  'bedrock-converse': bedrockConverseEncoder,
  gemini: geminiEncoder,
};

/** The encoder for `protocol`. */
export function encoderFor(protocol: WireProtocol): ProtocolEncoder {
  return protocolEncoders[protocol];
}
