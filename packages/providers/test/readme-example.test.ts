// The example from README.md, kept here so it is proven to compile and pass.
import {
  type ChatOptions,
  type ChatRequest,
  type ChatResponse,
  ModelProvider,
  throwIfAborted,
} from '@hermes/providers';
import { describeModelProviderContract, type ProviderScript } from '@hermes/providers/testing';

class EchoProvider extends ModelProvider {
  readonly name = 'echo';

  constructor(private readonly script: ProviderScript) {
    super();
  }

  async chat(request: ChatRequest, options: ChatOptions = {}): Promise<ChatResponse> {
    throwIfAborted(options.signal);
    const text = this.script.text;
    if (request.stream) {
      options.onEvent?.({ type: 'text_start', index: 0 });
      options.onEvent?.({ type: 'text_delta', index: 0, delta: text });
      options.onEvent?.({ type: 'text_end', index: 0, text });
      options.onEvent?.({ type: 'done', finishReason: 'stop' });
    }
    return {
      message: { role: 'assistant', content: text },
      finishReason: 'stop',
      usage: {
        inputTokens: 0,
        outputTokens: 0,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        reasoningTokens: 0,
      },
      model: request.model,
      provider: this.name,
    };
  }
}

describeModelProviderContract('README EchoProvider', ({ script }) => new EchoProvider(script));
