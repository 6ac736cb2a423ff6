/**
 * Tool-loop guardrails: a model stuck repeating the same call, or hammering one tool without
 * progress, is told so in the tool result; with `haltAfter` set, the turn stops instead
 * (`guardrail_halt`).
 */

/** Guardrail settings. */
export interface GuardrailOptions {
  /** Identical calls (same tool, same arguments) before the model is warned. Default 3. */
  readonly repeatWarnAt?: number;
  /** Calls of one tool with identical results before the model is warned. Default 4. */
  readonly noProgressWarnAt?: number;
  /** Identical calls after which the turn halts. Default: never. */
  readonly haltAfter?: number;
}

/** What the guardrail says about one finished call. */
export interface GuardrailVerdict {
  /** Appended to the tool result, when set. */
  readonly warning?: string;
  /** The turn must stop. */
  readonly halt: boolean;
}

/** Per-turn guardrail state. */
export class ToolGuardrails {
  readonly #repeatWarnAt: number;
  readonly #noProgressWarnAt: number;
  readonly #haltAfter: number;
  readonly #callCounts = new Map<string, number>();
  readonly #resultCounts = new Map<string, number>();

  constructor(options: GuardrailOptions = {}) {
    this.#repeatWarnAt = options.repeatWarnAt ?? 3;
    this.#noProgressWarnAt = options.noProgressWarnAt ?? 4;
    this.#haltAfter = options.haltAfter ?? Number.POSITIVE_INFINITY;
  }

  /** Records a finished call and says whether to warn or halt. */
  observe(name: string, rawArgs: string, result: string): GuardrailVerdict {
    const callKey = `${name}\u0000${rawArgs}`;
    const calls = (this.#callCounts.get(callKey) ?? 0) + 1;
    this.#callCounts.set(callKey, calls);
    const resultKey = `${name}\u0000${result}`;
    const same = (this.#resultCounts.get(resultKey) ?? 0) + 1;
    this.#resultCounts.set(resultKey, same);
    if (calls >= this.#haltAfter) {
      return { halt: true, warning: haltWarning(name, calls) };
    }
    if (calls >= this.#repeatWarnAt) {
      return {
        halt: false,
        warning: `[Guardrail: you have made this exact ${name} call ${calls} times this turn. Repeating it will not change the result; try a different approach or explain what is blocking you.]`,
      };
    }
    if (same >= this.#noProgressWarnAt) {
      return {
        halt: false,
        warning: `[Guardrail: ${name} returned the same result ${same} times. You are not making progress this way; change approach.]`,
      };
    }
    return { halt: false };
  }
}

function haltWarning(name: string, calls: number): string {
  return `[Guardrail: the same ${name} call was made ${calls} times; the turn is stopped to avoid a runaway loop.]`;
}
