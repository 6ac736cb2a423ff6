/**
 * The per-turn iteration budget: one unit per model call, refundable for iterations that should
 * not count (a compression retry, an iteration whose only tool was `execute_code`).
 */
export class IterationBudget {
  /** The most iterations this turn may use. */
  readonly maxTotal: number;
  #used = 0;

  constructor(maxTotal: number) {
    if (!Number.isInteger(maxTotal) || maxTotal < 1) {
      throw new RangeError(`maxIterations must be a positive integer, got ${maxTotal}`);
    }
    this.maxTotal = maxTotal;
  }

  /** Iterations used so far. */
  get used(): number {
    return this.#used;
  }

  /** Iterations left. */
  get remaining(): number {
    return this.maxTotal - this.#used;
  }

  /** Takes one iteration; false when none is left. */
  consume(): boolean {
    if (this.#used >= this.maxTotal) return false;
    this.#used += 1;
    return true;
  }

  /** Gives one back (never below zero). */
  refund(): void {
    if (this.#used > 0) this.#used -= 1;
  }
}
