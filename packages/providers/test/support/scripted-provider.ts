/** A minimal in-test ModelProvider: answers every call with scripted text, streamed in chunks. */
import type { Usage } from '@hermes/protocol';
import {
  type ChatOptions,
  type ChatRequest,
  type ChatResponse,
  type ModelInfo,
  ModelProvider,
  type StreamEvent,
  throwIfAborted,
} from '../../src/index.js';
import type { ProviderScript } from '../../src/testing.js';

function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

export class ScriptedProvider extends ModelProvider {
  readonly name = 'scripted';
  /** Every request this provider received, for assertions. */
  readonly requests: ChatRequest[] = [];

  constructor(
    private readonly script: ProviderScript,
    private readonly chunkSize = 7,
  ) {
    super();
  }

  async chat(request: ChatRequest, options: ChatOptions = {}): Promise<ChatResponse> {
    throwIfAborted(options.signal);
    this.requests.push(request);
    const usage: Usage = {
      inputTokens: request.messages.length * 10,
      outputTokens: Math.ceil(this.script.text.length / 4),
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    };
    if (request.stream && options.onEvent) {
      await this.stream(options.onEvent, usage, options.signal);
    }
    return {
      message: { role: 'assistant', content: this.script.text },
      finishReason: 'stop',
      usage,
      model: request.model,
      provider: this.name,
    };
  }

  private async stream(
    emit: (event: StreamEvent) => void,
    usage: Usage,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    emit({ type: 'text_start', index: 0 });
    for (const delta of chunks(this.script.text, this.chunkSize)) {
      await Promise.resolve();
      throwIfAborted(signal);
      emit({ type: 'text_delta', index: 0, delta });
    }
    emit({ type: 'text_end', index: 0, text: this.script.text });
    emit({ type: 'usage', usage });
    emit({ type: 'done', finishReason: 'stop' });
  }

  override listModels(): Promise<ModelInfo[]> {
    return Promise.resolve([{ id: 'scripted-1', contextLength: 128_000 }]);
  }

  override contextLength(_model: string): number {
    return 128_000;
  }
}
