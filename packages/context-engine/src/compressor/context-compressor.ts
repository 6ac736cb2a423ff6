/** The default context engine: prune, summarize the middle, keep head and tail. */
import { type ChatMessage, promptTokens, type ToolSchema, type Usage } from '@hermes/protocol';
import {
  BASIC_COMPRESS_OPTIONS,
  type CompressionResult,
  type CompressOptionName,
  type CompressOptions,
} from '../compression.js';
import { ContextEngine } from '../context-engine.js';
import type {
  ContextEngineStatus,
  ModelUpdate,
  PruneOptions,
  PruneResult,
  SessionStartContext,
} from '../engine-types.js';
import { type CompressionOutcome, type RunResult, runCompression } from './compression-run.js';
import { FailureGuard } from './failure-guard.js';
import {
  type CompressorSettings,
  type ContextCompressorOptions,
  parseCompressorSettings,
} from './options.js';
import { proactivePrune } from './proactive-prune.js';
import { findRegions } from './regions.js';
import type { Summarizer } from './summarizer.js';
import { compressionThreshold, defaultThresholdPercent, tailTokenBudget } from './thresholds.js';
import { estimateTokens, estimateToolSchemaTokens } from './token-estimate.js';
import { compressionWarnings } from './warnings.js';

/** The session facts a host persists after a compression (and passes back on resume). */
export interface CompressorSessionState {
  /** Successful compressions this session (`SessionRecord.counters.compressions`). */
  readonly compressionCount: number;
  /** `SessionRecord.compressionCooldownUntil`: the summarizer backoff end, or `null`. */
  readonly compressionCooldownUntil: number | null;
  /** `SessionRecord.compressionFailureStreak`: consecutive ineffective compressions. */
  readonly compressionFailureStreak: number;
  /** The proactive prune's re-arm line, in tokens. */
  readonly pruneRearmTokens: number;
}

/**
 * What {@link ContextCompressor.compress} returns: the seam's result plus what the loop needs to
 * persist it. With `changed`, pass `messages` straight to `SessionStore.archiveAndCompact` as the
 * replacement (old rows are archived, still searchable), add 1 to the session's compressions,
 * and store `session`; show `warnings` to the user.
 */
export interface CompressorResult extends CompressionResult {
  readonly outcome: CompressionOutcome;
  readonly warnings: string[];
  /** Input indices `[start, end)` the summary replaced; absent when nothing was summarized. */
  readonly summarizedRange?: { readonly start: number; readonly end: number };
  /** Index of the last user message, carried verbatim after the summary, when it was mid-span. */
  readonly pinnedUserIndex?: number;
  readonly session: CompressorSessionState;
}

/** The default engine. Name `compressor`. */
export class ContextCompressor extends ContextEngine {
  readonly name = 'compressor';
  override readonly acceptedCompressOptions: readonly CompressOptionName[] = [
    ...BASIC_COMPRESS_OPTIONS,
    'signal',
  ];
  override readonly quietAutoCompaction: boolean;
  private readonly settings: CompressorSettings;
  private readonly summarizer: Summarizer | undefined;
  private readonly guard: FailureGuard;
  private contextLength: number;
  private model: string | undefined;
  private lastPromptTokens = 0;
  private compressionCount = 0;
  private pruneRearmTokens = 0;
  private toolSchemaTokens = 0;

  constructor(options: ContextCompressorOptions) {
    super();
    this.settings = parseCompressorSettings(options);
    this.summarizer = options.summarizer;
    this.guard = new FailureGuard(options.now ?? Date.now, this.settings.maxAttemptsPerTurn);
    this.contextLength = this.settings.contextLength;
    this.model = this.settings.model;
    this.quietAutoCompaction = this.settings.quietAutoCompaction;
  }

  /** The prompt size at which automatic compression fires. */
  get thresholdTokens(): number {
    const percent = this.settings.thresholdPercent ?? defaultThresholdPercent(this.contextLength);
    return compressionThreshold(this.contextLength, percent, this.settings.reservedOutputTokens);
  }

  /** The protected tail's token budget. */
  get tailTokens(): number {
    return this.settings.tailTokens ?? tailTokenBudget(this.contextLength);
  }

  /** The tool schemas sent with each request, counted by the preflight estimate. */
  setToolSchemas(tools: readonly ToolSchema[]): void {
    this.toolSchemaTokens = estimateToolSchemaTokens(tools);
  }

  /** Last reported prompt tokens plus a rough estimate of the messages added since. */
  projectPromptTokens(addedMessages: readonly ChatMessage[]): number {
    return this.lastPromptTokens + estimateTokens(addedMessages);
  }

  updateFromResponse(usage: Usage): void {
    this.lastPromptTokens = promptTokens(usage);
    this.guard.promptReported(this.lastPromptTokens, this.thresholdTokens);
  }

  shouldCompress(tokens?: number): boolean {
    return (
      (tokens ?? this.lastPromptTokens) >= this.thresholdTokens && this.guard.allowsAutomatic()
    );
  }

  override shouldCompressPreflight(messages: readonly ChatMessage[]): boolean {
    return this.shouldCompress(estimateTokens(messages) + this.toolSchemaTokens);
  }

  /** Defers when real usage says the prompt was under the threshold and the estimate fits. */
  override shouldDeferPreflightToRealUsage(roughTokens: number): boolean {
    const real = this.lastPromptTokens;
    return real > 0 && real < this.thresholdTokens && roughTokens < this.contextLength;
  }

  override hasContentToCompress(messages: readonly ChatMessage[]): boolean {
    const regions = findRegions(messages, this.regionOptions());
    const middle = regions.tailStart - regions.headEnd - (regions.pinnedUser === undefined ? 0 : 1);
    return middle > 0;
  }

  async compress(
    messages: readonly ChatMessage[],
    options: CompressOptions,
  ): Promise<CompressorResult> {
    const run = await runCompression(
      {
        settings: this.settings,
        contextLength: this.contextLength,
        thresholdTokens: this.thresholdTokens,
        tailTokens: this.tailTokens,
        protectFirstN: this.compressionCount > 0 ? 0 : this.settings.protectFirstN,
        guard: this.guard,
        summarizer: this.summarizer,
        toolSchemaTokens: this.toolSchemaTokens,
      },
      messages,
      options,
    );
    // Only a written summary counts: phase 1 alone (pruned, or a rejected summary) does not.
    if (run.changed && run.summary !== undefined) this.compressionCount++;
    return this.toResult(messages, run, options.currentTokens);
  }

  override pruneToolResultsOnly(
    messages: readonly ChatMessage[],
    options: PruneOptions = {},
  ): PruneResult {
    const outcome = proactivePrune(messages, options.currentTokens, this.pruneRearmTokens, {
      triggerTokens: this.settings.proactivePruneTokens,
      minReclaimTokens: this.settings.pruneMinReclaimTokens,
      protectLastN: this.settings.pruneProtectLastN,
      keepImages: this.settings.keepImages,
      maxArgumentChars: this.settings.maxArgumentChars,
    });
    this.pruneRearmTokens = outcome.rearmTokens;
    return { messages: outcome.messages, reclaimedTokens: outcome.reclaimedTokens };
  }

  override onTurnComplete(_messages: readonly ChatMessage[], _usage?: Usage): Promise<void> {
    this.guard.newTurn();
    return Promise.resolve();
  }

  override onSessionStart(_sessionId: string, context: SessionStartContext = {}): Promise<void> {
    if (context.model !== undefined) this.model = context.model;
    if (context.contextLength !== undefined) this.contextLength = context.contextLength;
    this.compressionCount = context.compressionCount ?? this.compressionCount;
    this.pruneRearmTokens = context.pruneRearmTokens ?? this.pruneRearmTokens;
    this.guard.restore({
      ...(context.compressionCooldownUntil === undefined
        ? {}
        : { summarizerCooldownUntil: context.compressionCooldownUntil }),
      ...(context.compressionFailureStreak === undefined
        ? {}
        : { ineffectiveStreak: context.compressionFailureStreak }),
    });
    return Promise.resolve();
  }

  override onSessionReset(): Promise<void> {
    this.compressionCount = 0;
    this.lastPromptTokens = 0;
    this.pruneRearmTokens = 0;
    this.guard.reset();
    return Promise.resolve();
  }

  override updateModel(update: ModelUpdate): void {
    this.model = update.model;
    this.contextLength = update.contextLength;
  }

  /** The persistable session facts. */
  sessionState(): CompressorSessionState {
    const guard = this.guard.snapshot();
    return {
      compressionCount: this.compressionCount,
      compressionCooldownUntil: guard.summarizerCooldownUntil,
      compressionFailureStreak: guard.ineffectiveStreak,
      pruneRearmTokens: this.pruneRearmTokens,
    };
  }

  override getStatus(): ContextEngineStatus {
    return {
      engine: this.name,
      ...(this.model === undefined ? {} : { model: this.model }),
      contextLength: this.contextLength,
      thresholdTokens: this.thresholdTokens,
      lastPromptTokens: this.lastPromptTokens,
      breakerTripped: this.guard.tripped,
      attemptsThisTurn: this.guard.attempts,
      ...this.sessionState(),
      warnings: compressionWarnings({ compressionCount: this.compressionCount }),
    };
  }

  private regionOptions() {
    return {
      protectFirstN: this.compressionCount > 0 ? 0 : this.settings.protectFirstN,
      tailTokens: this.tailTokens,
      tailMinMessages: this.settings.tailMinMessages,
    };
  }

  private toResult(
    input: readonly ChatMessage[],
    run: RunResult,
    currentTokens: number | undefined,
  ): CompressorResult {
    const tokensBefore = currentTokens ?? run.estimateBefore;
    const tokensAfter = run.changed
      ? Math.max(0, tokensBefore - (run.estimateBefore - run.estimateAfter))
      : tokensBefore;
    const warnings = compressionWarnings({
      compressionCount: this.compressionCount,
      outcome: run.outcome,
      changed: run.changed,
      ...(run.failure === undefined ? {} : { failure: run.failure }),
    });
    return {
      messages: [...run.messages],
      changed: run.changed,
      stats: {
        messagesBefore: input.length,
        messagesAfter: run.messages.length,
        tokensBefore,
        tokensAfter,
      },
      outcome: run.outcome,
      warnings,
      session: this.sessionState(),
      ...(run.summary === undefined ? {} : { summary: run.summary }),
      ...(run.summarizedRange === undefined ? {} : { summarizedRange: run.summarizedRange }),
      ...(run.pinnedUserIndex === undefined ? {} : { pinnedUserIndex: run.pinnedUserIndex }),
    };
  }
}
