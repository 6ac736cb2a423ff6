/** What the agent loop asks of a model provider: one request, plus how to observe and cancel it. */
import type { ChatMessage, ToolSchema } from '@hermes/protocol';
import { z } from 'zod';
import type { StreamEvent } from './stream-event.js';

/**
 * How hard a reasoning model should think. `none` turns reasoning off where the model allows it.
 * Adapters map these onto the provider's own knob (`reasoning_effort`, thinking budgets, …).
 */
export const ReasoningEffortSchema = z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']);
export type ReasoningEffort = z.infer<typeof ReasoningEffortSchema>;

/** Reasoning settings of one request. */
export interface ReasoningOptions {
  /** How much reasoning to ask for. */
  readonly effort: ReasoningEffort;
}

/**
 * Whether and which tool the model must call: `auto` (the model decides; the default when tools
 * are given), `none` (answer in text), `required` (call at least one tool), or one named function.
 */
export type ToolChoice =
  | 'auto'
  | 'none'
  | 'required'
  | { readonly type: 'function'; readonly name: string };

/** One model call, in Hermes' provider-neutral vocabulary. */
export interface ChatRequest {
  /** The model identifier as the provider knows it, e.g. `gpt-4.1` or `claude-sonnet-4-5`. */
  readonly model: string;
  /**
   * The whole conversation, system prompt first when there is one. Providers must treat it as
   * read-only: the caller reuses the same objects for persistence and the next request.
   */
  readonly messages: readonly ChatMessage[];
  /** Functions the model may call. Absent or empty: the request carries no tools. */
  readonly tools?: readonly ToolSchema[];
  /** Tool-calling policy; ignored when there are no tools. */
  readonly toolChoice?: ToolChoice;
  /** Upper bound on generated tokens (reasoning included where the provider counts it so). */
  readonly maxOutputTokens?: number;
  /** Sampling temperature; absent means the provider's default. */
  readonly temperature?: number;
  /** Reasoning effort for models that support it; ignored by the others. */
  readonly reasoning?: ReasoningOptions;
  /**
   * Ask the service to stream. A provider that cannot stream still answers, and still reports
   * its answer through `onEvent` (one delta per block) so observers see the same event shapes.
   */
  readonly stream?: boolean;
  /** Secret-free tags for the provider's logs or headers (session id, platform, …). */
  readonly metadata?: Readonly<Record<string, string>>;
}

/** How the caller observes and cancels a {@link ChatRequest}. */
export interface ChatOptions {
  /**
   * Cancels the call. An implementation stops network work promptly and rejects with an error
   * that {@link isAbortError} recognizes; an already-aborted signal rejects without a request.
   */
  readonly signal?: AbortSignal;
  /**
   * Receives stream events synchronously and in order, each a valid {@link StreamEvent}; see
   * that type for the ordering rules. Called only while `chat` is pending.
   */
  readonly onEvent?: (event: StreamEvent) => void;
}
