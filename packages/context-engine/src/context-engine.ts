/** The ContextEngine seam: what goes into each request's message list, and how history shrinks. */
import type { ChatMessage, ToolSchema, Usage } from '@hermes/protocol';
import {
  BASIC_COMPRESS_OPTIONS,
  type CompressionResult,
  type CompressOptionName,
  type CompressOptions,
} from './compression.js';
import type {
  ContextEngineStatus,
  EngineToolCallContext,
  ModelUpdate,
  PruneOptions,
  PruneResult,
  SelectContextInput,
  SessionStartContext,
} from './engine-types.js';

/**
 * Manages the conversation as it approaches the model's context window. The loop decides when
 * to call the model; the engine decides what the message list looks like. Exactly one engine is
 * active, chosen by config.
 *
 * Two orthogonal verbs: `compress` rewrites history (the host persists the result through
 * `SessionStore.archiveAndCompact`), `selectContext` shapes one request only and is never
 * persisted. Neither touches the system prompt's text or the tool list.
 *
 * Lifecycle: `onSessionStart` once per session; per model call `selectContext`, `shouldCompress`,
 * `compress` when it said yes, then `updateFromResponse`; `onTurnComplete` per turn;
 * `onSessionEnd` only at real session boundaries (exit, `/reset`, expiry), never per turn.
 *
 * Implement the abstract members; the optional members have safe defaults, so an engine written
 * today keeps working when a new optional member is added. Run `describeContextEngineContract`
 * from `@hermes/context-engine/testing` against it.
 */
export abstract class ContextEngine {
  /** Short identifier used in config and status, for example `compressor`. Never empty. */
  abstract readonly name: string;

  /**
   * The {@link CompressOptions} this engine's `compress` understands. The host passes only these
   * (see `compressOptionsFor`), so adding an option to the host never breaks an older engine.
   * Default: the four basic options.
   */
  readonly acceptedCompressOptions: readonly CompressOptionName[] = BASIC_COMPRESS_OPTIONS;

  /**
   * When true, the host stays silent about routine automatic compactions that succeed (for an
   * engine that reorganizes context as background maintenance). Warnings, errors and manual
   * `/compress` are always reported. Default `false`.
   */
  readonly quietAutoCompaction: boolean = false;

  /** Records the token usage the provider reported for the last model call. */
  abstract updateFromResponse(usage: Usage): void;

  /**
   * Whether the conversation should be compressed before the next call. `promptTokens` is the
   * best current size when the host has one; without it the engine uses what it last recorded.
   */
  abstract shouldCompress(promptTokens?: number): boolean;

  /**
   * Compacts `messages` and resolves to the new conversation with statistics. Must keep the
   * original system message first, never separate an assistant tool call from its results,
   * keep the latest user message, and never mutate its input.
   */
  abstract compress(
    messages: readonly ChatMessage[],
    options: CompressOptions,
  ): Promise<CompressionResult>;

  /**
   * Chooses or replaces the messages of this one request, before generation. The input is the
   * host's copy; the result is sent as is and never persisted. Must not mutate its input.
   * Default: the input unchanged.
   */
  selectContext(
    requestMessages: readonly ChatMessage[],
    _input?: SelectContextInput,
  ): Promise<readonly ChatMessage[]> {
    return Promise.resolve(requestMessages);
  }

  /** Observes a finished turn (post-turn ingestion). Default: nothing. */
  onTurnComplete(_messages: readonly ChatMessage[], _usage?: Usage): Promise<void> {
    return Promise.resolve();
  }

  /**
   * Cheap, model-free trimming of old tool results, on a cost trigger independent of the window.
   * Default: nothing pruned (the input array itself and 0 tokens).
   */
  pruneToolResultsOnly(messages: readonly ChatMessage[], _options?: PruneOptions): PruneResult {
    return { messages, reclaimedTokens: 0 };
  }

  /** A rough check before the turn's first call, from message sizes alone. Default `false`. */
  shouldCompressPreflight(_messages: readonly ChatMessage[]): boolean {
    return false;
  }

  /**
   * Whether to skip the preflight compression and wait for the provider's real usage, given the
   * rough estimate. Default `false`.
   */
  shouldDeferPreflightToRealUsage(_roughTokens: number): boolean {
    return false;
  }

  /** Whether a manual `/compress` has anything to work on. Default `true`. */
  hasContentToCompress(_messages: readonly ChatMessage[]): boolean {
    return true;
  }

  /** A conversation began or was resumed. Default: nothing. */
  onSessionStart(_sessionId: string, _context?: SessionStartContext): Promise<void> {
    return Promise.resolve();
  }

  /** A session really ended (exit, `/reset`, expiry); not called per turn. Default: nothing. */
  onSessionEnd(_sessionId: string, _messages: readonly ChatMessage[]): Promise<void> {
    return Promise.resolve();
  }

  /** The conversation was reset in place; forget per-session state. Default: nothing. */
  onSessionReset(): Promise<void> {
    return Promise.resolve();
  }

  /** Tools this engine offers the model (for example to expand folded context). Default none. */
  getToolSchemas(): readonly ToolSchema[] {
    return [];
  }

  /**
   * Runs one of this engine's tools and resolves to its result text, or to `undefined` when the
   * tool is not this engine's. Default: `undefined` for every name.
   */
  handleToolCall(
    _name: string,
    _args: Readonly<Record<string, unknown>>,
    _context?: EngineToolCallContext,
  ): Promise<string | undefined> {
    return Promise.resolve(undefined);
  }

  /** Figures for status displays. Default: the name and a compression count of 0. */
  getStatus(): ContextEngineStatus {
    return { engine: this.name, compressionCount: 0 };
  }

  /** The active model or its window changed; recompute thresholds. Default: nothing. */
  updateModel(_update: ModelUpdate): void {}
}
