/**
 * The one object a provider adapter feeds while it parses its wire format. It turns the
 * adapter's calls into the normalized {@link StreamEvent}s, in the order that type documents, and
 * at the end into the normalized {@link ChatResponse}. Adapters stay thin: they translate wire
 * events into these calls and never track blocks, indices or buffers themselves.
 */
import {
  type AssistantMessage,
  emptyUsage,
  type FinishReason,
  HermesError,
  parseOrThrow,
  type ReasoningDetail,
  type ToolCall,
  type Usage,
} from '@hermes/protocol';
import { z } from 'zod';
import type { ChatResponse } from '../chat-response.js';
import type { StreamEvent } from '../stream-event.js';
import { BlockSeries } from './block-series.js';
import { ThinkScrubber } from './think-scrubber.js';
import { ToolCallAssembler, type ToolCallHeader, type ToolCallKey } from './tool-call-assembler.js';
import { mergeUsage, type UsageUpdate } from './usage-update.js';

/** Options of a {@link StreamAccumulator}. */
export interface StreamAccumulatorOptions {
  /** Receives every event synchronously and in order (usually `ChatOptions.onEvent`). */
  readonly onEvent?: ((event: StreamEvent) => void) | undefined;
  /**
   * Remove `<think>`-style blocks from text deltas and route their content to reasoning (see
   * `ThinkScrubber`). Default `true`; an adapter whose service never inlines reasoning may turn
   * it off to keep an answer that legitimately starts a line with `<think>`.
   */
  readonly scrubThinkBlocks?: boolean;
  /** Creates ids for tool calls whose server sent none. Default `call_<24 hex>`. */
  readonly generateToolCallId?: () => string;
  /**
   * Called when `onEvent` throws; the stream goes on either way, because an observer must never
   * break a model call. Default: the error is dropped.
   */
  readonly onObserverError?: (error: unknown, event: StreamEvent) => void;
}

/** Who answered, for {@link StreamAccumulator.build}. */
export interface ResponseMeta {
  /** The model that answered (fall back to the requested model when the wire has none). */
  readonly model: string;
  /** The provider's name (`ModelProvider.name`). */
  readonly provider: string;
  /** The service's response id, when it sent one. */
  readonly responseId?: string | undefined;
}

const ResponseMetaSchema = z.object({
  model: z.string().min(1, 'model must not be empty'),
  provider: z.string().min(1, 'provider must not be empty'),
  responseId: z.string().optional(),
});

/** The code of the error thrown when an accumulator is used after it was abandoned. */
export const STREAM_ABANDONED_CODE = 'provider.stream_abandoned';

type Phase = 'streaming' | 'built' | 'abandoned';

/**
 * Accumulates one model call's stream. Feed it while parsing, then call {@link build} once.
 *
 * - Text and reasoning: {@link textDelta} / {@link reasoningDelta} open a block when none is open;
 *   {@link endText} / {@link endReasoning} close it (Anthropic's `content_block_stop`), so the
 *   next delta opens the next index. Blocks still open are closed by {@link build}.
 * - Tool calls: {@link toolCallStart} (id and/or name, in any chunk), {@link toolCallArgumentsDelta},
 *   {@link toolCallDone}; keyed by the adapter's wire key, numbered in first-seen order.
 * - {@link usage} merges counters (latest value wins); {@link finish} records the finish reason.
 * - {@link build} closes everything, emits `done` and returns the response. After `build` or
 *   {@link abandon} every feeding call is ignored: an SDK may still deliver a late chunk.
 *
 * Everything is kept as chunks and joined once, so a call costs time and memory linear in its
 * output, however it was cut.
 */
export class StreamAccumulator {
  private readonly onEvent: ((event: StreamEvent) => void) | undefined;
  private readonly onObserverError: ((error: unknown, event: StreamEvent) => void) | undefined;
  private readonly text: BlockSeries;
  private readonly reasoning: BlockSeries;
  private readonly tools: ToolCallAssembler;
  private readonly scrubber: ThinkScrubber | undefined;
  private readonly details: ReasoningDetail[] = [];
  private currentUsage: Usage = emptyUsage();
  private finishReason: FinishReason | undefined;
  private phase: Phase = 'streaming';
  private response: ChatResponse | undefined;

  constructor(options: StreamAccumulatorOptions = {}) {
    this.onEvent = options.onEvent;
    this.onObserverError = options.onObserverError;
    const emit = (event: StreamEvent): void => this.emit(event);
    this.text = new BlockSeries('text', emit);
    this.reasoning = new BlockSeries('reasoning', emit);
    this.tools = new ToolCallAssembler(emit, options.generateToolCallId);
    if (options.scrubThinkBlocks ?? true) {
      this.scrubber = new ThinkScrubber({
        visible: (piece) => this.text.append(piece),
        reasoning: (piece) => this.reasoning.append(piece),
        reasoningEnd: () => this.reasoning.end(),
      });
    }
  }

  /** True once {@link build} or {@link abandon} ran. */
  get closed(): boolean {
    return this.phase !== 'streaming';
  }

  /** A fragment of answer text (think blocks in it become reasoning unless turned off). */
  textDelta(text: string): void {
    if (this.phase !== 'streaming' || text.length === 0) return;
    if (this.scrubber === undefined) this.text.append(text);
    else this.scrubber.feed(text);
  }

  /** Closes the current text block; the next text delta opens a new one. */
  endText(): void {
    if (this.phase !== 'streaming') return;
    this.scrubber?.flush();
    this.text.end();
  }

  /** A fragment of exposed reasoning (`reasoning_content`, thinking deltas, summaries). */
  reasoningDelta(text: string): void {
    if (this.phase === 'streaming') this.reasoning.append(text);
  }

  /** Closes the current reasoning block; the next reasoning delta opens a new one. */
  endReasoning(): void {
    if (this.phase === 'streaming') this.reasoning.end();
  }

  /**
   * A provider reasoning block to keep verbatim for replay (Anthropic thinking with its
   * signature, redacted thinking, an encrypted Responses reasoning item). Not an event.
   */
  reasoningDetail(detail: ReasoningDetail): void {
    if (this.phase === 'streaming') this.details.push(detail);
  }

  /** The id and/or name (or a piece of the name) of tool call `key`; see `ToolCallAssembler`. */
  toolCallStart(key: ToolCallKey, header: ToolCallHeader): void {
    if (this.phase === 'streaming') this.tools.header(key, header);
  }

  /** A fragment of tool call `key`'s raw JSON arguments. */
  toolCallArgumentsDelta(key: ToolCallKey, fragment: string): void {
    if (this.phase === 'streaming') this.tools.argumentsDelta(key, fragment);
  }

  /** Tool call `key` is complete (optional: {@link build} closes every open call). */
  toolCallDone(key: ToolCallKey): void {
    if (this.phase === 'streaming') this.tools.done(key);
  }

  /** Usage counters as reported so far; emits a `usage` event when a counter changed. */
  usage(update: UsageUpdate): void {
    if (this.phase !== 'streaming') return;
    const merged = mergeUsage(this.currentUsage, update);
    if (merged === undefined) return;
    this.currentUsage = merged;
    this.emit({ type: 'usage', usage: { ...merged } });
  }

  /** The normalized finish reason; the latest call wins. */
  finish(reason: FinishReason): void {
    if (this.phase === 'streaming') this.finishReason = reason;
  }

  /** The visible text emitted so far: what an aborted call keeps. */
  partialText(): string {
    if (this.response !== undefined) return textOf(this.response.message);
    return this.text.soFar();
  }

  /** Stops the stream without `done` (the call failed or was aborted). Idempotent. */
  abandon(): void {
    if (this.phase === 'streaming') this.phase = 'abandoned';
  }

  /**
   * Ends the stream: releases the scrubber's held tail, closes every open block and tool call,
   * emits `done`, and returns the response. A repeated call returns the same response.
   *
   * The finish reason is the one given to {@link finish}, defaulting to `stop`; `stop` with tool
   * calls becomes `tool_calls` (some servers say `stop` when they called tools). The content is
   * the text blocks joined, or `null` when it is empty and there are tool calls; `reasoning` is
   * the reasoning blocks joined by a blank line.
   *
   * @throws ValidationError when `meta.model` or `meta.provider` is empty.
   * @throws HermesError `provider.stream_abandoned` after {@link abandon}.
   */
  build(meta: ResponseMeta): ChatResponse {
    if (this.response !== undefined) return this.response;
    if (this.phase === 'abandoned') {
      throw new HermesError(
        STREAM_ABANDONED_CODE,
        'This stream was abandoned; it has no response.',
      );
    }
    const who = parseOrThrow(ResponseMetaSchema, meta, 'stream response metadata');
    this.scrubber?.flush();
    this.reasoning.end();
    this.text.end();
    this.tools.finishAll();
    const toolCalls = this.tools.toolCalls();
    let finishReason = this.finishReason ?? 'stop';
    if (finishReason === 'stop' && toolCalls.length > 0) finishReason = 'tool_calls';
    const response: ChatResponse = {
      message: this.message(toolCalls, finishReason),
      finishReason,
      usage: { ...this.currentUsage },
      model: who.model,
      provider: who.provider,
    };
    if (who.responseId !== undefined) response.responseId = who.responseId;
    this.emit({ type: 'done', finishReason });
    this.phase = 'built';
    this.response = response;
    return response;
  }

  private message(toolCalls: ToolCall[], finishReason: FinishReason): AssistantMessage {
    const texts = this.text.texts();
    const content = texts.length === 1 ? (texts[0] as string) : texts.join('');
    const message: AssistantMessage = {
      role: 'assistant',
      content: content === '' && toolCalls.length > 0 ? null : content,
    };
    if (toolCalls.length > 0) message.tool_calls = toolCalls;
    const reasoning = this.reasoning.texts().join('\n\n');
    if (reasoning !== '') message.reasoning = reasoning;
    if (this.details.length > 0) message.reasoning_details = [...this.details];
    message.finish_reason = finishReason;
    return message;
  }

  private emit(event: StreamEvent): void {
    const onEvent = this.onEvent;
    if (onEvent === undefined || this.phase !== 'streaming') return;
    try {
      onEvent(event);
    } catch (error) {
      this.onObserverError?.(error, event);
    }
  }
}

function textOf(message: AssistantMessage): string {
  return typeof message.content === 'string' ? message.content : '';
}
