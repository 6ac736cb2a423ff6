/**
 * The loop's side of compression: when to ask the context engine, how many attempts a turn gets,
 * and committing the result through the session store (old rows archived, never deleted). The
 * engine decides what the messages look like; the gate decides when.
 */
import type { ContextEngine } from '@hermes/context-engine';
import { compressOptionsFor } from '@hermes/context-engine';
import type { ChatMessage, CompressionTrigger } from '@hermes/protocol';
import { PersistenceFailedError, type SessionWriter } from '../persist/session-writer.js';

/** Compression attempts per turn before the turn gives up on an oversized context. */
export const MAX_COMPRESSION_ATTEMPTS = 3;

/** What the gate reports to the turn. */
export interface CompressionReport {
  readonly trigger: CompressionTrigger;
  readonly ok: boolean;
  readonly changed: boolean;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly messagesBefore: number;
  readonly messagesAfter: number;
  readonly error?: string;
  /** The engine's messages for the user (`CompressionResult.warnings`). */
  readonly warnings?: readonly string[];
}

/** Hooks the gate calls around a compression. */
export interface CompressionHooks {
  /** Before compressing: text the external memory provider wants kept (`onPreCompress`). */
  readonly beforeCompress?: (messages: readonly ChatMessage[]) => Promise<string>;
  readonly onStart?: (trigger: CompressionTrigger, tokens: number, messages: number) => void;
  readonly onEnd?: (report: CompressionReport) => void;
}

/** One turn's compression state. */
export class CompressionGate {
  readonly #engine: ContextEngine;
  readonly #writer: SessionWriter;
  readonly #hooks: CompressionHooks;
  #attempts = 0;

  /**
   * @param automatic - false turns off compression the gate starts by itself (preflight and
   *   threshold); an overflow error and a manual `/compress` still compress.
   */
  constructor(
    engine: ContextEngine,
    writer: SessionWriter,
    hooks: CompressionHooks = {},
    readonly automatic = true,
  ) {
    this.#engine = engine;
    this.#writer = writer;
    this.#hooks = hooks;
  }

  /** Attempts used this turn. */
  get attempts(): number {
    return this.#attempts;
  }

  /** Whether another attempt is allowed. */
  get canAttempt(): boolean {
    return this.#attempts < MAX_COMPRESSION_ATTEMPTS;
  }

  /**
   * Re-arms the counter once the provider confirms the prompt fits: a local estimate is not
   * proof, the provider's reported prompt tokens are.
   */
  confirmPromptTokens(promptTokens: number): void {
    if (!this.#engine.shouldCompress(promptTokens)) this.#attempts = 0;
  }

  /** Whether `tokens` calls for automatic compression (and an attempt is left). */
  needed(tokens: number): boolean {
    return this.automatic && this.canAttempt && this.#engine.shouldCompress(tokens);
  }

  /**
   * Compresses `messages` in place (the array is replaced element-wise) and commits the result.
   * Returns the report; a failed engine leaves the messages as they were.
   */
  async compress(
    messages: ChatMessage[],
    trigger: CompressionTrigger,
    options: { tokens: number; focusTopic?: string; force?: boolean; signal?: AbortSignal },
  ): Promise<CompressionReport> {
    this.#attempts += 1;
    const before = { tokens: options.tokens, count: messages.length };
    this.#hooks.onStart?.(trigger, before.tokens, before.count);
    let report: CompressionReport;
    try {
      const memoryContext = (await this.#hooks.beforeCompress?.(messages)) || undefined;
      const result = await this.#engine.compress(
        messages,
        compressOptionsFor(this.#engine, {
          currentTokens: options.tokens,
          force: options.force ?? trigger === 'overflow',
          ...(options.focusTopic ? { focusTopic: options.focusTopic } : {}),
          ...(memoryContext ? { memoryContext } : {}),
          ...(options.signal ? { signal: options.signal } : {}),
        }),
      );
      if (result.changed) {
        await this.#writer.compact(result.messages);
        messages.splice(0, messages.length, ...result.messages);
        // Only a written summary is a compression the user's accuracy warning counts; pruning
        // old tool output alone (or keeping it when the summary was rejected) loses nothing.
        if (result.summary !== undefined) {
          await this.#writer.store
            .incrementCounters(this.#writer.sessionId, { compressions: 1 })
            .catch(() => undefined);
        }
      }
      report = {
        trigger,
        ok: true,
        changed: result.changed,
        tokensBefore: result.stats.tokensBefore,
        tokensAfter: result.stats.tokensAfter,
        messagesBefore: result.stats.messagesBefore,
        messagesAfter: result.stats.messagesAfter,
        ...(result.warnings?.length ? { warnings: result.warnings } : {}),
      };
    } catch (error) {
      // A failed save ends the turn; a failed engine only skips this compression.
      if (error instanceof PersistenceFailedError) throw error;
      report = {
        trigger,
        ok: false,
        changed: false,
        tokensBefore: before.tokens,
        tokensAfter: before.tokens,
        messagesBefore: before.count,
        messagesAfter: messages.length,
        error: error instanceof Error ? error.message : String(error),
      };
    }
    this.#hooks.onEnd?.(report);
    return report;
  }
}
