/** The compressor's summarizer: a tool-less call to a model provider. */
import type { Summarizer } from '@hermes/context-engine';
import type { ModelProvider } from '@hermes/providers';

/** Summarizes with `provider` / `model` (by default the main model). */
export function summarizerFor(provider: ModelProvider, model: string): Summarizer {
  return async (request) => {
    const response = await provider.chat(
      {
        model,
        messages: [
          { role: 'system', content: request.system },
          { role: 'user', content: request.prompt },
        ],
        maxOutputTokens: request.maxTokens,
      },
      { signal: request.signal },
    );
    const content = response.message.content;
    if (typeof content === 'string') return content;
    return (content ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('');
  };
}
