/** A minimal in-test ContextEngine: keeps the system prompt and the last N messages. */
import { type ChatMessage, promptTokens, type Usage } from '@hermes/protocol';
import {
  type CompressionResult,
  type CompressOptions,
  ContextEngine,
  type ContextEngineStatus,
  type ModelUpdate,
} from '../../src/index.js';
import { roughTokens } from '../../src/testing.js';

export class KeepLastNEngine extends ContextEngine {
  readonly name = 'keep-last-n';
  /** Every options object `compress` received, for assertions. */
  readonly received: CompressOptions[] = [];
  private lastPromptTokens = 0;
  private compressions = 0;

  constructor(
    private contextLength: number,
    private readonly keep = 6,
  ) {
    super();
  }

  private get threshold(): number {
    return Math.floor(this.contextLength * 0.75);
  }

  updateFromResponse(usage: Usage): void {
    this.lastPromptTokens = promptTokens(usage);
  }

  shouldCompress(tokens?: number): boolean {
    return (tokens ?? this.lastPromptTokens) >= this.threshold;
  }

  compress(messages: readonly ChatMessage[], options: CompressOptions): Promise<CompressionResult> {
    this.received.push(options);
    const head = messages[0]?.role === 'system' ? 1 : 0;
    let start = Math.max(head, messages.length - this.keep);
    while (start > head && messages[start]?.role === 'tool') start--;
    const lastUser = messages.findLastIndex((m) => m.role === 'user');
    if (lastUser >= head) start = Math.min(start, lastUser);
    const kept = [...messages.slice(0, head), ...messages.slice(start)];
    const changed = kept.length < messages.length;
    if (changed) this.compressions++;
    return Promise.resolve({
      messages: kept,
      changed,
      stats: {
        messagesBefore: messages.length,
        messagesAfter: kept.length,
        tokensBefore: roughTokens(messages),
        tokensAfter: roughTokens(kept),
      },
    });
  }

  override updateModel(update: ModelUpdate): void {
    this.contextLength = update.contextLength;
  }

  override getStatus(): ContextEngineStatus {
    return {
      engine: this.name,
      compressionCount: this.compressions,
      contextLength: this.contextLength,
      thresholdTokens: this.threshold,
      lastPromptTokens: this.lastPromptTokens,
    };
  }
}
