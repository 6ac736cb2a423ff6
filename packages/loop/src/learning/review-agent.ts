/**
 * One background review: a child {@link Agent} on the `review` slot's model that reads the
 * conversation as a transcript and may call only `memory` and `skill_manage` (the same tool
 * objects the main agent uses, so every guard they have applies). Its session lives in an
 * in-memory SQLite store that is thrown away: nothing it says reaches the user's session.
 */
import { type CompressionResult, ContextEngine } from '@hermes/context-engine';
import type { ExecutionEnvironment } from '@hermes/environments';
import type { ChatMessage, ToolSchema } from '@hermes/protocol';
import type { ModelProvider } from '@hermes/providers';
import { openSessionStore } from '@hermes/state';
import { Agent } from '../agent.js';
import { type LoopTool, LoopToolbox } from '../tools/loop-toolbox.js';
import { sequentialPlan, type Toolbox } from '../tools/toolbox.js';
import type { LearningConfig } from './learning-config.js';
import { type ReviewReason, reviewPrompt } from './review-prompt.js';
import { type KeptItem, recordingTool, summarizeReview } from './review-summary.js';

/** The only tools a review may call. */
export const REVIEW_TOOLS: ReadonlySet<string> = new Set(['memory', 'skill_manage']);

/** What one review needs. */
export interface ReviewRun {
  readonly provider: ModelProvider;
  readonly model: string;
  /** The agent's loop tools; only {@link REVIEW_TOOLS} are kept. */
  readonly tools: readonly LoopTool[];
  readonly environment: () => ExecutionEnvironment;
  readonly hermesHome: string;
  readonly platform: string;
  readonly messages: readonly ChatMessage[];
  readonly reason: ReviewReason;
  readonly settings: LearningConfig;
  readonly signal: AbortSignal;
}

/** What a review did: its one line, and each write that succeeded. */
export interface ReviewOutcome {
  readonly line: string;
  readonly kept: readonly KeptItem[];
}

/** Runs one review to its end (or until `signal` aborts it). Never throws. */
export async function runReview(run: ReviewRun): Promise<ReviewOutcome> {
  const kept: KeptItem[] = [];
  const tools = run.tools
    .filter((tool) => REVIEW_TOOLS.has(tool.schema.function.name))
    .map((tool) => recordingTool(tool, kept));
  // A throwaway store: the child's session, messages and counters vanish with it.
  const store = openSessionStore({ path: ':memory:' });
  try {
    const child = new Agent({
      provider: run.provider,
      model: run.model,
      providerName: run.provider.name,
      tools: new LoopToolbox(NO_TOOLS, tools),
      sessionStore: store,
      contextEngine: new UncompressedEngine(),
      environment: run.environment,
      platform: run.platform,
      hermesHome: run.hermesHome,
      maxIterations: run.settings.maxIterations,
      approvalSurface: 'subagent',
      autoCompression: false,
      // The slot's provider chain retries on its own.
      retryTransient: false,
    });
    const prompt = reviewPrompt(run.messages, run.reason, run.settings.maxInputChars);
    const result = await child.runConversation(prompt, { signal: run.signal });
    return { line: summarizeReview(kept, result), kept };
  } catch {
    return { line: summarizeReview(kept, undefined), kept };
  } finally {
    await store.close();
  }
}

/** A toolbox with no tools of its own: the review's tools are all loop tools. */
const NO_TOOLS: Toolbox = {
  schemas: (): readonly ToolSchema[] => [],
  names: () => [],
  dispatch: async (name) => ({
    content: `[TOOL_ERROR] ${name} is not available to the review.`,
    status: 'error',
    durationMs: 0,
  }),
  plan: sequentialPlan,
};

/**
 * The review's context engine: it never compresses. The transcript is already cut to
 * `maxInputChars` and the review is a few calls long, so its context cannot grow past that.
 */
class UncompressedEngine extends ContextEngine {
  readonly name = 'review-uncompressed';
  updateFromResponse(): void {}
  shouldCompress(): boolean {
    return false;
  }
  async compress(messages: readonly ChatMessage[]): Promise<CompressionResult> {
    const count = messages.length;
    return {
      messages: [...messages],
      changed: false,
      stats: { messagesBefore: count, messagesAfter: count, tokensBefore: 0, tokensAfter: 0 },
    };
  }
}
