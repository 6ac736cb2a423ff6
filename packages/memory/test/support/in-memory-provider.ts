/** A minimal in-test MemoryProvider: facts in an array, word-overlap recall, one tool. */
import { join } from 'node:path';
import type { ToolSchema } from '@hermes/protocol';
import {
  type MemoryInitContext,
  MemoryProvider,
  type MemoryTurn,
  type MemoryWriteEvent,
  type PrefetchOptions,
} from '../../src/index.js';

function words(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []);
}

function abortError(): Error {
  const error = new Error('prefetch aborted');
  error.name = 'AbortError';
  return error;
}

export class InMemoryMemoryProvider extends MemoryProvider {
  readonly name = 'in-memory';
  readonly facts: string[] = [];
  private home: string | undefined;

  constructor(private readonly recallDelayMs = 20) {
    super();
  }

  initialize(context: MemoryInitContext): Promise<void> {
    this.home = context.hermesHome;
    return Promise.resolve();
  }

  prefetch(query: string, options: PrefetchOptions = {}): Promise<string> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(abortError());
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        clearTimeout(timer);
        reject(abortError());
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve(this.recall(query));
      }, this.recallDelayMs);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private recall(query: string): string {
    const wanted = words(query);
    const hits = this.facts.filter((fact) => [...words(fact)].some((w) => wanted.has(w)));
    return hits.map((fact) => `- ${fact}`).join('\n');
  }

  syncTurn(turn: MemoryTurn): Promise<void> {
    this.facts.push(turn.userMessage);
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }

  override systemPromptBlock(): string {
    return 'Use memory_note to remember a fact for later sessions.';
  }

  override getToolSchemas(): readonly ToolSchema[] {
    return [
      {
        type: 'function',
        function: {
          name: 'memory_note',
          description: 'Remember one fact.',
          parameters: {
            type: 'object',
            properties: { fact: { type: 'string' } },
            required: ['fact'],
          },
        },
      },
    ];
  }

  override handleToolCall(
    name: string,
    args: Readonly<Record<string, unknown>>,
  ): Promise<string | undefined> {
    if (name !== 'memory_note') return Promise.resolve(undefined);
    this.facts.push(String(args.fact));
    return Promise.resolve('Remembered.');
  }

  override onMemoryWrite(event: MemoryWriteEvent): Promise<void> {
    if (event.action !== 'remove') this.facts.push(event.content);
    return Promise.resolve();
  }

  override backupPaths(): readonly string[] {
    return this.home ? [join(this.home, 'memories', 'in-memory.json')] : [];
  }
}
