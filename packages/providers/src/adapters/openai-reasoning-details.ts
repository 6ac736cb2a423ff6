/**
 * OpenRouter's `reasoning_details` in a stream: each chunk carries fragments of the reasoning
 * blocks (`{type: 'reasoning.text', text: 'Let me', index: 0}`, later `{…, signature: '…'}`),
 * which must be merged back into whole blocks and replayed verbatim on the next turn — Anthropic
 * and Gemini models behind OpenRouter reject tool-call turns whose signed reasoning is missing.
 */
import { type ReasoningDetail, ReasoningDetailSchema } from '@hermes/protocol';
import type { WireReasoningDetail } from './openai-chat-wire.js';

/** The fields whose fragments are concatenated; every other field keeps its latest value. */
const GROWING_FIELDS = ['text', 'summary', 'data'] as const;

interface Block {
  readonly fields: Record<string, unknown>;
  /** Fragments of the growing fields, joined once at the end. */
  readonly parts: Map<string, string[]>;
}

/**
 * Merges streamed reasoning-detail fragments into blocks, keyed by their `index` (or, without
 * one, by type and arrival: a fragment of a new type opens a new block). Linear in the input.
 */
export class ReasoningDetailMerger {
  private readonly blocks: Block[] = [];
  private readonly byIndex = new Map<number, Block>();

  /** Adds the fragments of one chunk, in order. */
  add(fragments: readonly WireReasoningDetail[]): void {
    for (const fragment of fragments) this.addOne(fragment);
  }

  /**
   * The merged blocks, in first-seen order, ready to keep as `reasoning_details`. A block whose
   * merged fields do not have the shape of a reasoning detail is left out.
   */
  details(): ReasoningDetail[] {
    const out: ReasoningDetail[] = [];
    for (const block of this.blocks) {
      const merged: Record<string, unknown> = { ...block.fields };
      for (const [field, parts] of block.parts) merged[field] = parts.join('');
      const parsed = ReasoningDetailSchema.safeParse(merged);
      if (parsed.success) out.push(parsed.data);
    }
    return out;
  }

  private addOne(fragment: WireReasoningDetail): void {
    const block = this.blockFor(fragment);
    for (const [field, value] of Object.entries(fragment)) {
      if (value === null || value === undefined) continue;
      if (isGrowing(field) && typeof value === 'string') {
        const parts = block.parts.get(field) ?? [];
        parts.push(value);
        block.parts.set(field, parts);
      } else {
        block.fields[field] = value;
      }
    }
  }

  private blockFor(fragment: WireReasoningDetail): Block {
    const index = typeof fragment.index === 'number' ? fragment.index : undefined;
    const known = index === undefined ? this.lastOfType(fragment.type) : this.byIndex.get(index);
    if (known !== undefined) return known;
    const block: Block = { fields: {}, parts: new Map() };
    this.blocks.push(block);
    if (index !== undefined) this.byIndex.set(index, block);
    return block;
  }

  /** The last block, when it has `type` and no index of its own. */
  private lastOfType(type: string): Block | undefined {
    const last = this.blocks.at(-1);
    if (last === undefined || last.fields.type !== type || 'index' in last.fields) return undefined;
    return last;
  }
}

function isGrowing(field: string): field is (typeof GROWING_FIELDS)[number] {
  return (GROWING_FIELDS as readonly string[]).includes(field);
}
