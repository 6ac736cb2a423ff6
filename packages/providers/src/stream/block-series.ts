/**
 * The text blocks or the reasoning blocks of one stream: numbering, `*_start` / `*_delta` /
 * `*_end` events, and the block texts for the final message.
 */
import type { StreamEvent } from '../stream-event.js';

/** Delivers one stream event. */
export type EmitStreamEvent = (event: StreamEvent) => void;

/** Joins chunks once; a single chunk is returned as is (no copy of a large block). */
export function joinChunks(chunks: readonly string[]): string {
  return chunks.length === 1 ? (chunks[0] as string) : chunks.join('');
}

/**
 * A run of blocks of one kind. At most one block is open; a delta opens one when none is, and
 * {@link end} closes it, so the next delta opens the block with the next index. Deltas are kept
 * as chunks and joined once, when their block ends.
 */
export class BlockSeries {
  private readonly kind: 'text' | 'reasoning';
  private readonly emit: EmitStreamEvent;
  private readonly closedTexts: string[] = [];
  private open: string[] | undefined;

  constructor(kind: 'text' | 'reasoning', emit: EmitStreamEvent) {
    this.kind = kind;
    this.emit = emit;
  }

  /** Appends `delta` to the open block, opening one first if needed. Empty deltas are ignored. */
  append(delta: string): void {
    if (delta.length === 0) return;
    const index = this.closedTexts.length;
    let open = this.open;
    if (open === undefined) {
      open = [];
      this.open = open;
      this.emit(
        this.kind === 'text' ? { type: 'text_start', index } : { type: 'reasoning_start', index },
      );
    }
    open.push(delta);
    this.emit(
      this.kind === 'text'
        ? { type: 'text_delta', index, delta }
        : { type: 'reasoning_delta', index, delta },
    );
  }

  /** Closes the open block, if any, emitting its end with the whole text. */
  end(): void {
    const open = this.open;
    if (open === undefined) return;
    this.open = undefined;
    const index = this.closedTexts.length;
    const text = joinChunks(open);
    this.closedTexts.push(text);
    this.emit(
      this.kind === 'text'
        ? { type: 'text_end', index, text }
        : { type: 'reasoning_end', index, text },
    );
  }

  /** The texts of the closed blocks, in index order. */
  texts(): readonly string[] {
    return this.closedTexts;
  }

  /** Everything appended so far, the open block included. */
  soFar(): string {
    const open = this.open ?? [];
    return this.closedTexts.join('') + open.join('');
  }
}
