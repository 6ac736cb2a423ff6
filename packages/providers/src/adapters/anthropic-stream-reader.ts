/**
 * Reads Anthropic Messages stream events into a {@link StreamAccumulator}. Each content block is
 * tracked by its wire `index` from `content_block_start` to `content_block_stop`:
 *
 * - `text` → text deltas; its stop closes the text block (`endText`).
 * - `thinking` → reasoning deltas; `signature_delta`s are collected; its stop closes the
 *   reasoning block and, when a signature came, keeps `{type: 'thinking', thinking, signature}`
 *   as a reasoning detail, verbatim, for replay.
 * - `redacted_thinking` → kept as `{type: 'redacted_thinking', data}`; it has no readable text.
 * - `tool_use` → a tool call keyed by the block index (`id` and `name` from the start, arguments
 *   from `input_json_delta` fragments); its stop completes the call.
 * - Any other block (server tools and their results) is skipped: Hermes does not run them.
 *
 * `message_start` gives the model, id and input usage; `message_delta` the stop reason and the
 * running output usage; `message_stop` marks the answer complete. Unknown event types (`ping`,
 * future additions) are skipped; a known event with a broken shape is an
 * {@link AnthropicProtocolError}; an `error` event is an {@link AnthropicStreamEventError}.
 */
import type { StreamAccumulator } from '../stream/response-builder.js';
import {
  AnthropicIncompleteStreamError,
  AnthropicProtocolError,
  AnthropicStreamEventError,
} from './anthropic-errors.js';
import { finishReasonOf } from './anthropic-finish-reason.js';
import { usageUpdateOf } from './anthropic-usage.js';
import {
  KNOWN_STREAM_EVENT_TYPES,
  type WireBlock,
  type WireDelta,
  type WireStreamEvent,
  WireStreamEventSchema,
} from './anthropic-wire.js';

/** What the reader remembers about one open content block. */
type BlockState =
  | { readonly kind: 'text' }
  | { readonly kind: 'thinking'; readonly thinking: string[]; readonly signature: string[] }
  | { readonly kind: 'redacted'; readonly data: string }
  | { readonly kind: 'tool'; sawArguments: boolean; readonly startInput: unknown }
  | { readonly kind: 'skipped' };

type EventOf<T extends WireStreamEvent['type']> = Extract<WireStreamEvent, { type: T }>;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeIssues(error: { issues: readonly { path: PropertyKey[]; message: string }[] }) {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
}

/** One call's stream reader; feed it every event, then check {@link assertComplete}. */
export class AnthropicStreamReader {
  private readonly acc: StreamAccumulator;
  private readonly blocks = new Map<number, BlockState>();
  private events = 0;
  private stopped = false;
  /** The model that answered, from `message_start`. */
  model: string | undefined;
  /** The message id, from `message_start`. */
  responseId: string | undefined;

  constructor(acc: StreamAccumulator) {
    this.acc = acc;
  }

  /** Reads one raw event as the SDK yielded it (parsed JSON of unknown shape). */
  handle(raw: unknown): void {
    this.events++;
    if (!isPlainObject(raw) || typeof raw.type !== 'string') return;
    if (!KNOWN_STREAM_EVENT_TYPES.has(raw.type)) return;
    const parsed = WireStreamEventSchema.safeParse(raw);
    if (!parsed.success) {
      throw new AnthropicProtocolError(
        `The Anthropic API sent a malformed ${raw.type} event (${describeIssues(parsed.error)}).`,
      );
    }
    this.apply(parsed.data);
  }

  /** Applies one checked event. */
  apply(event: WireStreamEvent): void {
    if (this.stopped) return;
    switch (event.type) {
      case 'message_start':
        this.model = event.message.model || this.model;
        this.responseId = event.message.id || this.responseId;
        this.acc.usage(usageUpdateOf(event.message.usage));
        return;
      case 'content_block_start':
        this.start(event.index, event.content_block);
        return;
      case 'content_block_delta':
        this.delta(event);
        return;
      case 'content_block_stop':
        this.stop(event.index);
        return;
      case 'message_delta':
        if (typeof event.delta.stop_reason === 'string') {
          this.acc.finish(finishReasonOf(event.delta.stop_reason));
        }
        this.acc.usage(usageUpdateOf(event.usage));
        return;
      case 'message_stop':
        this.stopped = true;
        return;
      case 'error':
        throw new AnthropicStreamEventError(event);
    }
  }

  /** Throws {@link AnthropicIncompleteStreamError} unless `message_stop` arrived. */
  assertComplete(): void {
    if (!this.stopped) throw new AnthropicIncompleteStreamError(this.events);
  }

  private start(index: number, block: WireBlock): void {
    switch (block.type) {
      case 'text':
        this.blocks.set(index, { kind: 'text' });
        // The API opens text blocks empty; a proxy may put the first text here.
        this.acc.textDelta(block.text ?? '');
        return;
      case 'thinking':
        this.blocks.set(index, {
          kind: 'thinking',
          thinking: block.thinking ? [block.thinking] : [],
          signature: block.signature ? [block.signature] : [],
        });
        this.acc.reasoningDelta(block.thinking ?? '');
        return;
      case 'redacted_thinking':
        this.blocks.set(index, { kind: 'redacted', data: block.data ?? '' });
        return;
      case 'tool_use':
        this.blocks.set(index, { kind: 'tool', sawArguments: false, startInput: block.input });
        this.acc.toolCallStart(index, { id: block.id, name: block.name });
        return;
      default:
        this.blocks.set(index, { kind: 'skipped' });
    }
  }

  private delta(event: EventOf<'content_block_delta'>): void {
    const { index, delta } = event;
    const state = this.blocks.get(index) ?? this.implicitBlock(index, delta);
    switch (delta.type) {
      case 'text_delta':
        if (state.kind === 'text') this.acc.textDelta(delta.text ?? '');
        return;
      case 'thinking_delta':
        if (state.kind !== 'thinking' || !delta.thinking) return;
        state.thinking.push(delta.thinking);
        this.acc.reasoningDelta(delta.thinking);
        return;
      case 'signature_delta':
        if (state.kind === 'thinking' && delta.signature) state.signature.push(delta.signature);
        return;
      case 'input_json_delta':
        if (state.kind !== 'tool' || !delta.partial_json) return;
        state.sawArguments = true;
        this.acc.toolCallArgumentsDelta(index, delta.partial_json);
        return;
      default:
      // citations_delta and future delta types carry nothing Hermes keeps.
    }
  }

  /** A delta for a block whose start never came: open the block its delta type implies. */
  private implicitBlock(index: number, delta: WireDelta): BlockState {
    const type =
      delta.type === 'text_delta'
        ? 'text'
        : delta.type === 'input_json_delta'
          ? 'tool_use'
          : delta.type === 'thinking_delta' || delta.type === 'signature_delta'
            ? 'thinking'
            : 'skipped';
    this.start(index, { type });
    return this.blocks.get(index) ?? { kind: 'skipped' };
  }

  private stop(index: number): void {
    const state = this.blocks.get(index);
    this.blocks.delete(index);
    switch (state?.kind) {
      case 'text':
        this.acc.endText();
        return;
      case 'thinking':
        this.stopThinking(state);
        return;
      case 'redacted':
        if (state.data !== '') {
          this.acc.reasoningDetail({ type: 'redacted_thinking', data: state.data });
        }
        return;
      case 'tool':
        if (!state.sawArguments) {
          // No fragments: the input came whole with the start (a non-streamed Message, some
          // proxies), or the tool takes no arguments.
          const input = isPlainObject(state.startInput) ? state.startInput : {};
          this.acc.toolCallArgumentsDelta(index, JSON.stringify(input));
        }
        this.acc.toolCallDone(index);
        return;
      default:
    }
  }

  private stopThinking(state: Extract<BlockState, { kind: 'thinking' }>): void {
    this.acc.endReasoning();
    const signature = state.signature.join('');
    // Without its signature a thinking block cannot be replayed: keep only its text.
    if (signature === '') return;
    this.acc.reasoningDetail({ type: 'thinking', thinking: state.thinking.join(''), signature });
  }
}
