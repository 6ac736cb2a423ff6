/** The holographic MemoryProvider: facts in SQLite, recalled by hybrid search each turn. */
import { join } from 'node:path';
import {
  type MemoryInitContext,
  MemoryProvider,
  type MemoryTurn,
  type MemoryWriteEvent,
  type PrefetchOptions,
  parseOrThrow,
  type ToolSchema,
} from '@hermes/plugin-sdk';
import { z } from 'zod';
import { FACT_STORE_TOOL_NAME, factStoreToolSchema, runFactStoreTool } from './fact-store-tool.js';
import { HRR_DIM } from './hrr.js';
import { DEFAULT_MIN_TRUST, FactRetriever } from './retrieval.js';
import { HolographicFactStore } from './store/fact-store.js';

/** The provider's section of config.yaml (`memory.holographic`). */
export const HolographicConfigSchema = z.object({
  /** Database file; default `HERMES_HOME/memory_store.db`. */
  db_path: z.string().min(1).optional(),
  dim: z.number().int().min(64).max(16_384).default(HRR_DIM),
  default_trust: z.number().min(0).max(1).default(0.5),
  min_trust: z.number().min(0).max(1).default(DEFAULT_MIN_TRUST),
  /** Facts recalled per turn. */
  prefetch_limit: z.number().int().min(1).max(20).default(5),
  /** Age half-life for ranking, in days; omit for no decay. */
  half_life_days: z.number().positive().optional(),
});

/** Validated configuration. */
export type HolographicConfig = z.infer<typeof HolographicConfigSchema>;

const PROMPT_BLOCK = [
  '## Holographic Memory',
  'You have a long-term fact store. Relevant facts are recalled into each turn automatically.',
  'Use the fact_store tool to add durable facts (one self-contained statement each), search them, probe what is known about an entity, find related entities, reason across several entities, and list possible contradictions.',
  'When a recalled fact turns out wrong or useful, give feedback so its trust score follows.',
].join('\n');

function abortError(): Error {
  const error = new Error('holographic recall aborted');
  error.name = 'AbortError';
  return error;
}

/**
 * Long-term memory of discrete facts with trust scores, entity links and phase vectors, in one
 * SQLite file. Facts are written only on purpose (the `fact_store` tool, or mirrored MEMORY.md /
 * USER.md writes), never inferred from chat, so `syncTurn` stores nothing.
 */
export class HolographicMemoryProvider extends MemoryProvider {
  readonly name = 'holographic';
  private store: HolographicFactStore | undefined;
  private retriever: FactRetriever | undefined;
  private config: HolographicConfig = HolographicConfigSchema.parse({});
  private dbPath: string | undefined;

  async initialize(context: MemoryInitContext): Promise<void> {
    this.config = parseOrThrow(
      HolographicConfigSchema,
      context.config ?? {},
      'memory.holographic config',
      'Fix memory.holographic in config.yaml.',
    );
    this.dbPath = this.config.db_path ?? join(context.hermesHome, 'memory_store.db');
    this.store?.close();
    this.store = new HolographicFactStore({
      path: this.dbPath,
      dim: this.config.dim,
      defaultTrust: this.config.default_trust,
    });
    this.retriever = new FactRetriever(this.store);
  }

  /** The open store (after `initialize`), for tools and tests. */
  get factStore(): HolographicFactStore | undefined {
    return this.store;
  }

  async prefetch(query: string, options: PrefetchOptions = {}): Promise<string> {
    if (options.signal?.aborted) throw abortError();
    if (!this.retriever || !this.store || query.trim() === '') return '';
    const halfLife = this.config.half_life_days;
    const results = this.retriever.search(query, {
      limit: this.config.prefetch_limit,
      minTrust: this.config.min_trust,
      ...(halfLife === undefined ? {} : { halfLifeDays: halfLife }),
    });
    if (results.length === 0) return '';
    this.store.markRetrieved(results.map((fact) => fact.id));
    return [
      '## Holographic Memory',
      ...results.map((fact) => `- [${fact.trust.toFixed(1)}] ${fact.content}`),
    ].join('\n');
  }

  /** Facts are stored through the tool, not from chat. */
  async syncTurn(_turn: MemoryTurn): Promise<void> {}

  override systemPromptBlock(): string {
    return PROMPT_BLOCK;
  }

  override getToolSchemas(): readonly ToolSchema[] {
    return [factStoreToolSchema];
  }

  override async handleToolCall(
    name: string,
    args: Readonly<Record<string, unknown>>,
  ): Promise<string | undefined> {
    if (name !== FACT_STORE_TOOL_NAME) return undefined;
    if (!this.store || !this.retriever) {
      return JSON.stringify({
        success: false,
        error: 'The holographic memory is not initialized.',
      });
    }
    return runFactStoreTool(args, this.store, this.retriever);
  }

  /** Mirrors MEMORY.md (category `general`) and USER.md (category `user_pref`) writes. */
  override async onMemoryWrite(event: MemoryWriteEvent): Promise<void> {
    const store = this.store;
    if (!store) return;
    const category = event.target === 'user' ? 'user_pref' : 'general';
    if (event.action === 'add') store.addFact({ content: event.content, category });
    else if (event.action === 'remove') {
      const fact = store.findByContent(event.content);
      if (fact) store.removeFact(fact.id);
    } else {
      const previous = event.previousContent && store.findByContent(event.previousContent);
      if (previous) store.updateFact(previous.id, { content: event.content });
      else store.addFact({ content: event.content, category });
    }
  }

  override backupPaths(): readonly string[] {
    return this.dbPath ? [this.dbPath] : [];
  }

  async shutdown(): Promise<void> {
    this.store?.close();
    this.store = undefined;
    this.retriever = undefined;
  }
}
