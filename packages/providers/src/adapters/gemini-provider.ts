/**
 * `gemini`: Google's native Gemini API (`generateContent` / `streamGenerateContent?alt=sse`) over
 * `undici`'s fetch. STUB: being written (issue 23); every call rejects until then.
 */
import { HermesError } from '@hermes/protocol';
import type { ChatResponse } from '../chat-response.js';
import { ModelProvider } from '../model-provider.js';
import type { AdapterOptions } from './adapter-options.js';

/** The adapter name of {@link GeminiProvider}. */
export const GEMINI_PROVIDER_NAME = 'gemini';

/** A {@link ModelProvider} speaking the native Gemini API. */
export class GeminiProvider extends ModelProvider {
  readonly name = GEMINI_PROVIDER_NAME;

  constructor(readonly options: AdapterOptions) {
    super();
  }

  chat(): Promise<ChatResponse> {
    return Promise.reject(
      new HermesError('provider.not_implemented', 'The Gemini adapter is not written yet.'),
    );
  }
}
