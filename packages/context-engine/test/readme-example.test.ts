// The example from README.md, kept here so it is proven to compile and pass.

import { type CompressionResult, ContextEngine } from '@hermes/context-engine';
import { describeContextEngineContract, roughTokens } from '@hermes/context-engine/testing';
import { type ChatMessage, promptTokens, type Usage } from '@hermes/protocol';

/** Keeps the system prompt and everything from the latest user message on. */
class LatestTurnOnly extends ContextEngine {
  readonly name = 'latest-turn-only';
  private lastPrompt = 0;

  constructor(private readonly contextLength: number) {
    super();
  }

  updateFromResponse(usage: Usage): void {
    this.lastPrompt = promptTokens(usage);
  }

  shouldCompress(tokens = this.lastPrompt): boolean {
    return tokens > this.contextLength * 0.75;
  }

  async compress(messages: readonly ChatMessage[]): Promise<CompressionResult> {
    const head = messages[0]?.role === 'system' ? [messages[0]] : [];
    const lastUser = messages.findLastIndex((m) => m.role === 'user');
    const kept = [...head, ...messages.slice(Math.max(lastUser, head.length))];
    const stats = {
      messagesBefore: messages.length,
      messagesAfter: kept.length,
      tokensBefore: roughTokens(messages),
      tokensAfter: roughTokens(kept),
    };
    return { messages: kept, changed: kept.length < messages.length, stats };
  }
}

describeContextEngineContract(
  'README LatestTurnOnly',
  ({ contextLength }) => new LatestTurnOnly(contextLength),
);
