// The example from README.md, kept here so it is proven to compile and pass.
import { MemoryProvider, type MemoryTurn, type PrefetchOptions } from '@hermes/memory';
import { describeMemoryProviderContract } from '@hermes/memory/testing';

/** Remembers what the user said this process, and recalls lines sharing a word with the query. */
class ScratchpadMemory extends MemoryProvider {
  readonly name = 'scratchpad';
  private readonly notes: string[] = [];

  async initialize(): Promise<void> {}

  async prefetch(query: string, options: PrefetchOptions = {}): Promise<string> {
    if (options.signal?.aborted) return '';
    const words = new Set(
      query
        .toLowerCase()
        .split(/\W+/)
        .filter((w) => w.length > 2),
    );
    return this.notes
      .filter((n) =>
        n
          .toLowerCase()
          .split(/\W+/)
          .some((w) => words.has(w)),
      )
      .join('\n');
  }

  async syncTurn(turn: MemoryTurn): Promise<void> {
    this.notes.push(turn.userMessage);
  }

  async shutdown(): Promise<void> {}
}

describeMemoryProviderContract('README ScratchpadMemory', () => new ScratchpadMemory());
