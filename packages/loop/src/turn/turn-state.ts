/**
 * The locals of one turn — counters, exit reason, usage — in one place, so the turn's steps can
 * share them without a god object. Nothing here outlives the turn except through the result.
 */
import { randomUUID } from 'node:crypto';
import type {
  ChatMessage,
  CompressionTrigger,
  ExitReason,
  MessageContent,
  Usage,
} from '@hermes/protocol';
import { addUsage, emptyUsage } from '@hermes/protocol';
import type { CompressionGate, CompressionReport } from '../compression/compression-gate.js';
import type { SessionWriter } from '../persist/session-writer.js';
import { ToolGuardrails } from '../tools/guardrails.js';
import type { AgentRuntime } from './agent-runtime.js';
import { IterationBudget } from './iteration-budget.js';

/** Errors while processing responses before the turn gives up. */
export const MAX_OUTER_ERRORS = 8;
/** Responses with malformed tool arguments before the turn gives up. */
export const MAX_INVALID_JSON_RETRIES = 3;

/** One turn's state. */
export class TurnState {
  readonly turnId = randomUUID();
  readonly startedAt = performance.now();
  readonly budget: IterationBudget;
  readonly guardrails: ToolGuardrails;
  apiCalls = 0;
  usage: Usage = emptyUsage();
  costUsd = 0;
  exitReason: ExitReason = 'unknown';
  finalResponse = '';
  error: string | undefined;
  outerErrors = 0;
  invalidJsonRetries = 0;
  wrapUpSent = false;
  /** The user's request, annotated with redirects so compression keeps corrections. */
  userRequest: string;
  /** Prompt tokens the provider last reported, and the conversation length at that time. */
  lastPromptTokens = 0;
  messagesAtLastUsage = 0;
  /** Session counters not yet written (flushed once, at finalize). */
  readonly pendingCounters = { apiCalls: 0, estimatedCostUsd: 0 };
  /**
   * Context a `preLlmCall` hook added for this turn: sent after the user message's text (and
   * any recalled memory) in this turn's requests only. Kept out of the writer's sidecar, which
   * outlives the turn and is saved with the message on a compaction.
   */
  hookContext: { readonly message: ChatMessage; readonly text: string } | undefined;

  constructor(
    readonly runtime: AgentRuntime,
    readonly messages: ChatMessage[],
    readonly writer: SessionWriter,
    readonly gate: CompressionGate,
    userRequest: string,
  ) {
    this.budget = new IterationBudget(runtime.maxIterations);
    this.guardrails = new ToolGuardrails(runtime.guardrails);
    this.userRequest = userRequest;
  }

  /** Records why the turn ends. */
  exit(reason: ExitReason, error?: string): void {
    this.exitReason = reason;
    if (error !== undefined) this.error = error;
  }

  /** Adds one response's usage. */
  addUsage(usage: Usage): void {
    this.usage = addUsage(this.usage, usage);
  }

  /** Seconds since the turn started. */
  elapsedSeconds(): number {
    return (performance.now() - this.startedAt) / 1000;
  }

  /**
   * Compresses the conversation through the gate. After a change the provider's last prompt
   * count describes a conversation that no longer exists, so estimates start over.
   */
  async compress(
    trigger: CompressionTrigger,
    options: { tokens: number; force?: boolean; focusTopic?: string },
  ): Promise<CompressionReport> {
    const report = await this.gate.compress(this.messages, trigger, {
      ...options,
      signal: this.runtime.control.signal,
    });
    if (report.changed) {
      this.lastPromptTokens = 0;
      this.messagesAtLastUsage = 0;
    }
    return report;
  }

  /** What `message` is sent as, when not its own content: the sidecar plus this turn's context. */
  apiContentOf(message: ChatMessage): MessageContent | undefined {
    const sidecar = this.writer.apiContent.get(message);
    const extra = this.hookContext;
    if (extra?.message !== message) return sidecar;
    const base = sidecar ?? message.content;
    return typeof base === 'string' ? `${base}\n\n${extra.text}` : sidecar;
  }

  /** The request size estimate: reported prompt tokens plus a rough count of what came since. */
  requestTokens(): number {
    if (this.lastPromptTokens === 0) return estimateTokens(this.messages);
    return this.lastPromptTokens + estimateTokens(this.messages.slice(this.messagesAtLastUsage));
  }
}

/** A rough token count: characters / 4 plus a small per-message overhead. */
export function estimateTokens(messages: readonly ChatMessage[]): number {
  let chars = 0;
  for (const message of messages) {
    const content = message.content;
    if (typeof content === 'string') chars += content.length;
    else if (Array.isArray(content)) {
      for (const part of content) chars += part.type === 'text' ? part.text.length : 1_000;
    }
    if (message.role === 'assistant') {
      for (const call of message.tool_calls ?? []) chars += call.function.arguments.length + 32;
    }
    chars += 16;
  }
  return Math.ceil(chars / 4);
}
