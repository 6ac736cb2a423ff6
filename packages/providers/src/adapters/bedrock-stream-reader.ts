/**
 * Reads Bedrock `ConverseStream` events into a {@link StreamAccumulator}. Blocks are tracked by
 * `contentBlockIndex`:
 *
 * - Only tool use opens with `contentBlockStart` (id and name); text and reasoning blocks start
 *   with their first delta, whose member (`text`, `reasoningContent`, `toolUse`) says the kind.
 * - `reasoningContent` deltas carry text, then the block's `signature` (or, for redacted
 *   reasoning, encrypted bytes); at `contentBlockStop` a signed block is kept verbatim as a
 *   `{type: 'thinking', thinking, signature}` reasoning detail (a redacted one as
 *   `{type: 'redacted_thinking', data}` in base64), for replay in the next request.
 * - `messageStop` gives the stop reason and marks the answer complete; `metadata`, which follows
 *   it, gives the usage.
 *
 * A non-streamed `Converse` body is read through the same reader ({@link readConverseOutput}),
 * so both paths emit the same events. Malformed events are a {@link BedrockProtocolError}; an
 * exception member in the stream is raised as the service exception it names.
 */
import type { StreamAccumulator } from '../stream/response-builder.js';
import {
  BedrockIncompleteStreamError,
  BedrockProtocolError,
  streamException,
} from './bedrock-errors.js';
import { bedrockFinishReason, bedrockUsageUpdate } from './bedrock-usage.js';
import {
  STREAM_EXCEPTION_MEMBERS,
  type WireBlockDelta,
  type WireContentBlock,
  WireConverseOutputSchema,
  type WireStreamEvent,
  WireStreamEventSchema,
} from './bedrock-wire.js';

/** What the reader remembers about one open content block. */
type BlockState =
  | { readonly kind: 'text' }
  | {
      readonly kind: 'reasoning';
      readonly text: string[];
      readonly signature: string[];
      redacted?: Uint8Array;
    }
  | { readonly kind: 'tool'; sawArguments: boolean };

function describeIssues(error: { issues: readonly { path: PropertyKey[]; message: string }[] }) {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** One call's reader; feed it every event, then check {@link assertComplete}. */
export class BedrockStreamReader {
  private readonly acc: StreamAccumulator;
  private readonly blocks = new Map<number, BlockState>();
  private events = 0;
  private stopped = false;

  constructor(acc: StreamAccumulator) {
    this.acc = acc;
  }

  /** Reads one event as the SDK yielded it. */
  handle(raw: unknown): void {
    this.events++;
    if (!isRecord(raw)) return;
    for (const [member, name] of Object.entries(STREAM_EXCEPTION_MEMBERS)) {
      if (raw[member] !== undefined) throw streamException(name, raw[member]);
    }
    const parsed = WireStreamEventSchema.safeParse(raw);
    if (!parsed.success) {
      throw new BedrockProtocolError(
        `Bedrock sent a malformed stream event (${describeIssues(parsed.error)}).`,
      );
    }
    this.apply(parsed.data);
  }

  /** Applies one checked event; unknown event types carry nothing and are skipped. */
  apply(event: WireStreamEvent): void {
    if (event.contentBlockStart?.start.toolUse !== undefined) {
      const { contentBlockIndex, start } = event.contentBlockStart;
      this.blocks.set(contentBlockIndex, { kind: 'tool', sawArguments: false });
      this.acc.toolCallStart(contentBlockIndex, {
        id: start.toolUse?.toolUseId,
        name: start.toolUse?.name,
      });
    } else if (event.contentBlockDelta !== undefined) {
      this.delta(event.contentBlockDelta.contentBlockIndex, event.contentBlockDelta.delta);
    } else if (event.contentBlockStop !== undefined) {
      this.stop(event.contentBlockStop.contentBlockIndex);
    } else if (event.messageStop !== undefined) {
      if (event.messageStop.stopReason !== undefined) {
        this.acc.finish(bedrockFinishReason(event.messageStop.stopReason));
      }
      this.stopped = true;
    } else if (event.metadata !== undefined) {
      this.acc.usage(bedrockUsageUpdate(event.metadata.usage));
    }
  }

  /** Throws {@link BedrockIncompleteStreamError} unless `messageStop` arrived. */
  assertComplete(): void {
    if (!this.stopped) throw new BedrockIncompleteStreamError(this.events);
  }

  /** The open block at `index`, opened as `kind` when its first delta is what announces it. */
  private blockAt(index: number, kind: 'text' | 'reasoning' | 'tool'): BlockState {
    const known = this.blocks.get(index);
    if (known !== undefined) return known;
    const state: BlockState =
      kind === 'text'
        ? { kind }
        : kind === 'reasoning'
          ? { kind, text: [], signature: [] }
          : { kind, sawArguments: false };
    this.blocks.set(index, state);
    if (kind === 'tool') this.acc.toolCallStart(index, {});
    return state;
  }

  private delta(index: number, delta: WireBlockDelta): void {
    if (delta.text !== undefined) {
      if (this.blockAt(index, 'text').kind === 'text') this.acc.textDelta(delta.text);
    } else if (delta.toolUse !== undefined) {
      const state = this.blockAt(index, 'tool');
      if (state.kind !== 'tool' || !delta.toolUse.input) return;
      state.sawArguments = true;
      this.acc.toolCallArgumentsDelta(index, delta.toolUse.input);
    } else if (delta.reasoningContent !== undefined) {
      const state = this.blockAt(index, 'reasoning');
      if (state.kind !== 'reasoning') return;
      const { text, signature, redactedContent } = delta.reasoningContent;
      if (text) {
        state.text.push(text);
        this.acc.reasoningDelta(text);
      }
      if (signature) state.signature.push(signature);
      if (redactedContent !== undefined) state.redacted = redactedContent;
    }
  }

  private stop(index: number): void {
    const state = this.blocks.get(index);
    this.blocks.delete(index);
    switch (state?.kind) {
      case 'text':
        this.acc.endText();
        return;
      case 'reasoning':
        this.stopReasoning(state);
        return;
      case 'tool':
        // A tool without arguments sends no input fragment at all.
        if (!state.sawArguments) this.acc.toolCallArgumentsDelta(index, '{}');
        this.acc.toolCallDone(index);
        return;
      default:
    }
  }

  private stopReasoning(state: Extract<BlockState, { kind: 'reasoning' }>): void {
    this.acc.endReasoning();
    if (state.redacted !== undefined) {
      const data = Buffer.from(state.redacted).toString('base64');
      this.acc.reasoningDetail({ type: 'redacted_thinking', data });
    }
    const signature = state.signature.join('');
    // Without its signature a reasoning block cannot be replayed: keep only its text.
    if (signature === '') return;
    this.acc.reasoningDetail({ type: 'thinking', thinking: state.text.join(''), signature });
  }
}

/** One content block of a Converse body as the deltas the stream would have sent. */
function blockDelta(block: WireContentBlock): WireBlockDelta | undefined {
  if (block.text !== undefined) return { text: block.text };
  const reasoning = block.reasoningContent;
  if (reasoning?.reasoningText !== undefined) {
    return { reasoningContent: { ...reasoning.reasoningText } };
  }
  if (reasoning?.redactedContent !== undefined) {
    return { reasoningContent: { redactedContent: reasoning.redactedContent } };
  }
  return undefined;
}

/**
 * Reads a non-streamed `Converse` output through `reader`: each content block as a start (tool
 * use) and one whole delta and stop, then the stop reason and the usage.
 */
export function readConverseOutput(reader: BedrockStreamReader, output: unknown): void {
  const parsed = WireConverseOutputSchema.safeParse(output);
  if (!parsed.success) {
    throw new BedrockProtocolError(
      `Bedrock sent a malformed Converse response (${describeIssues(parsed.error)}).`,
    );
  }
  const body = parsed.data;
  (body.output?.message?.content ?? []).forEach((block, contentBlockIndex) => {
    if (block.toolUse !== undefined) {
      const { toolUseId, name, input } = block.toolUse;
      reader.apply({
        contentBlockStart: { contentBlockIndex, start: { toolUse: { toolUseId, name } } },
      });
      const json = isRecord(input) && !Array.isArray(input) ? JSON.stringify(input) : '{}';
      reader.apply({
        contentBlockDelta: { contentBlockIndex, delta: { toolUse: { input: json } } },
      });
    } else {
      const delta = blockDelta(block);
      if (delta === undefined) return;
      reader.apply({ contentBlockDelta: { contentBlockIndex, delta } });
    }
    reader.apply({ contentBlockStop: { contentBlockIndex } });
  });
  reader.apply({ messageStop: { stopReason: body.stopReason } });
  reader.apply({ metadata: { usage: body.usage } });
}
