/**
 * `bedrock-converse`: Amazon Bedrock's Converse API on `@aws-sdk/client-bedrock-runtime`.
 * STUB: being written (issue 23); every call rejects until then.
 */
import { HermesError } from '@hermes/protocol';
import type { ChatResponse } from '../chat-response.js';
import { ModelProvider } from '../model-provider.js';
import type { AdapterOptions } from './adapter-options.js';

/** The adapter name of {@link BedrockConverseProvider}. */
export const BEDROCK_CONVERSE_PROVIDER_NAME = 'bedrock-converse';

/** A {@link ModelProvider} speaking Bedrock Converse (`ConverseStream` / `Converse`). */
export class BedrockConverseProvider extends ModelProvider {
  readonly name = BEDROCK_CONVERSE_PROVIDER_NAME;

  constructor(readonly options: AdapterOptions) {
    super();
  }

  chat(): Promise<ChatResponse> {
    return Promise.reject(
      new HermesError(
        'provider.not_implemented',
        'The Bedrock Converse adapter is not written yet.',
      ),
    );
  }
}
