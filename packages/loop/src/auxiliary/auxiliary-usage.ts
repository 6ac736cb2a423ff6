/** Tokens, cost and fallbacks of the auxiliary calls, per slot, for `/usage`. */
import { addUsage, emptyUsage, type Usage } from '@hermes/protocol';
import { estimateCostUsd } from '../model/pricing.js';
import type { AuxiliarySlot } from './auxiliary-slots.js';

/** One slot's totals. */
export interface SlotUsage {
  /** Calls that returned an answer (from the slot's model or the main one). */
  readonly calls: number;
  /** Calls where the slot's model failed and the main model was asked instead. */
  readonly fallbacks: number;
  /** Calls that failed on both (or on the main model, for `auto` slots). */
  readonly failures: number;
  readonly usage: Usage;
  /** Estimated, from the model that answered (0 for models the price table lacks). */
  readonly costUsd: number;
}

const EMPTY: SlotUsage = { calls: 0, fallbacks: 0, failures: 0, usage: emptyUsage(), costUsd: 0 };

/** Counts every auxiliary call of one agent. */
export class AuxiliaryUsageMeter {
  readonly #slots = new Map<AuxiliarySlot, SlotUsage>();

  /** A call on `slot` answered by `model` with `usage`. */
  answered(slot: AuxiliarySlot, model: string, usage: Usage): void {
    const before = this.#slots.get(slot) ?? EMPTY;
    this.#slots.set(slot, {
      ...before,
      calls: before.calls + 1,
      usage: addUsage(before.usage, usage),
      costUsd: before.costUsd + estimateCostUsd(model, usage),
    });
  }

  /** The slot's own model failed and the main model is being asked. */
  fellBack(slot: AuxiliarySlot): void {
    const before = this.#slots.get(slot) ?? EMPTY;
    this.#slots.set(slot, { ...before, fallbacks: before.fallbacks + 1 });
  }

  /** The call failed for good. */
  failed(slot: AuxiliarySlot): void {
    const before = this.#slots.get(slot) ?? EMPTY;
    this.#slots.set(slot, { ...before, failures: before.failures + 1 });
  }

  /** The slots used so far, in first-use order. */
  snapshot(): ReadonlyMap<AuxiliarySlot, SlotUsage> {
    return new Map(this.#slots);
  }
}

/**
 * One line per slot used, for `/usage`: `title: 2 calls · in 812 · out 24 · ~$0.0004 (1 fell
 * back to the main model)`. Empty when no side task ran.
 */
export function auxiliaryUsageLines(usage: ReadonlyMap<AuxiliarySlot, SlotUsage>): string[] {
  const count = (n: number) => n.toLocaleString('en-US');
  return [...usage].map(([slot, s]) => {
    const calls = s.calls === 1 ? '1 call' : `${count(s.calls)} calls`;
    const notes = [
      ...(s.fallbacks > 0 ? [`${count(s.fallbacks)} fell back to the main model`] : []),
      ...(s.failures > 0 ? [`${count(s.failures)} failed`] : []),
    ];
    const tail = notes.length > 0 ? ` (${notes.join(', ')})` : '';
    return `${slot}: ${calls} · in ${count(s.usage.inputTokens)} · out ${count(s.usage.outputTokens)} · ~$${s.costUsd.toFixed(4)}${tail}`;
  });
}
