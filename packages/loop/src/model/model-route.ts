/**
 * Which provider and model answer now: the primary, or — after a failure another provider can
 * fix — the next fallback, for the rest of the turn. The next turn starts on the primary again.
 */
import type { ModelProvider } from '@hermes/providers';

/** A provider with the model to ask it for. */
export interface ModelTarget {
  readonly provider: ModelProvider;
  readonly model: string;
  /** A display name; default `provider.name`. */
  readonly label?: string;
}

/** The primary plus its fallback chain, with a cursor that resets every turn. */
export class ModelRoute {
  readonly #targets: readonly ModelTarget[];
  #index = 0;

  constructor(primary: ModelTarget, fallbacks: readonly ModelTarget[] = []) {
    this.#targets = [primary, ...fallbacks];
  }

  /** The target answering now. */
  get current(): ModelTarget {
    return this.#targets[this.#index] as ModelTarget;
  }

  /** Whether a fallback is active. */
  get onFallback(): boolean {
    return this.#index > 0;
  }

  /** Back to the primary (start of a turn). */
  reset(): void {
    this.#index = 0;
  }

  /** Replaces the primary model (for `/model`); the fallbacks stay. */
  withPrimary(primary: ModelTarget): ModelRoute {
    return new ModelRoute(primary, this.#targets.slice(1));
  }

  /** Moves to the next fallback; false when the chain is spent. */
  advance(): boolean {
    if (this.#index + 1 >= this.#targets.length) return false;
    this.#index += 1;
    return true;
  }
}

/** The display name of a target. */
export function targetLabel(target: ModelTarget): string {
  return target.label ?? target.provider.name;
}
