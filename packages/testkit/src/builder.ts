/**
 * A fluent way to write a script in code.
 *
 * Parts of a turn are added in the order a model streams them: reasoning, then text, then tool
 * calls, then (optionally) a fault. A part that cannot come next in the current turn starts a new
 * turn, so `script().text('a').toolCall('x').text('b')` is two turns (text + call, then text) and
 * `script().reasoning('r').text('x')` is one. `.next()` makes the next part start a new turn;
 * `.turn(t => …)` adds one complete turn explicitly (later parts start a new turn). Settings (`usage`, `delay`, `chunking`, `times`, `match`,
 * `finishReason`, `model`) edit the latest turn. A fault attached to a turn with content makes
 * stalls and disconnects cut that content's stream.
 *
 * @example
 * ```ts
 * const s = script()
 *   .fault(faults.rateLimited(1))                     // turn 0: a 429
 *   .reasoning('Need the file.').toolCall('read_file', { path: 'a' }).usage({ inputTokens: 12 })
 *   .text('Done.');                                   // turn 2
 * ```
 */
import { parseOrThrow } from '@hermes/protocol';
import type { z } from 'zod';
import {
  type ChunkingSchema,
  type FaultInput,
  type Matcher,
  type Script,
  type ScriptInput,
  ScriptSchema,
  type ScriptToolCallInput,
  type ScriptTurn,
  type ScriptTurnInput,
  type ScriptUsage,
} from './script.js';

/** A turn being written: the hand-written turn shape with its tool-call list always present. */
type Draft = { -readonly [K in keyof ScriptTurnInput]: ScriptTurnInput[K] } & {
  toolCalls: NonNullable<ScriptTurnInput['toolCalls']>;
};

/** The parts of a turn, in stream order; see the module comment for how they split turns. */
const PART_ORDER = { reasoning: 1, text: 2, toolCall: 3, fault: 4 } as const;
type Part = keyof typeof PART_ORDER;

/** How far a turn has got in stream order: 0 for an empty turn. */
function stageOf(draft: Draft): number {
  if (draft.fault !== undefined) return PART_ORDER.fault;
  if (draft.toolCalls.length > 0) return PART_ORDER.toolCall;
  if (draft.text !== undefined) return PART_ORDER.text;
  if (draft.reasoning !== undefined) return PART_ORDER.reasoning;
  return 0;
}

function newDraft(from: ScriptTurnInput = {}): Draft {
  return { ...from, toolCalls: [...(from.toolCalls ?? [])] };
}

/** The part and setting methods shared by {@link ScriptBuilder} and {@link TurnBuilder}. */
export abstract class TurnEditor {
  /** The turn that a `part` (or, when omitted, a setting) goes into. */
  protected abstract draftFor(part?: Part): Draft;

  /** Sets the reasoning (chain of thought) and, for Anthropic, its thinking signature. */
  reasoning(text: string, signature?: string): this {
    const draft = this.draftFor('reasoning');
    draft.reasoning = text;
    if (signature !== undefined) draft.reasoningSignature = signature;
    return this;
  }

  /** Sets the visible text. */
  text(text: string): this {
    this.draftFor('text').text = text;
    return this;
  }

  /**
   * Adds a tool call. `args` as an object is sent as JSON; as a string it is sent verbatim (use
   * that for truncated or broken JSON). An id is generated per protocol unless `id` is given.
   */
  toolCall(name: string, args: Record<string, unknown> | string = {}, id?: string): this {
    const call: ScriptToolCallInput = { name, arguments: args };
    if (id !== undefined) call.id = id;
    this.draftFor('toolCall').toolCalls.push(call);
    return this;
  }

  /** Makes the turn fail with `fault` (see `faults` for presets). */
  fault(fault: FaultInput): this {
    this.draftFor('fault').fault = fault;
    return this;
  }

  /** Sets the reported token usage; missing counters are 0. */
  usage(usage: Partial<ScriptUsage>): this {
    this.draftFor().usage = usage;
    return this;
  }

  /** Waits `ms` before each stream frame, and before a JSON answer or an error. */
  delay(ms: number): this {
    this.draftFor().delayMs = ms;
    return this;
  }

  /** Sets how a streamed answer is cut into chunks. */
  chunking(chunking: z.input<typeof ChunkingSchema>): this {
    this.draftFor().chunking = chunking;
    return this;
  }

  /** Answers this many requests with the turn before it leaves the queue. */
  times(count: number): this {
    this.draftFor().times = count;
    return this;
  }

  /** Answers only requests matching `matcher`. */
  match(matcher: Matcher): this {
    this.draftFor().match = matcher;
    return this;
  }

  /** Overrides the finish reason derived from the content. */
  finishReason(reason: NonNullable<ScriptTurn['finishReason']>): this {
    this.draftFor().finishReason = reason;
    return this;
  }

  /** Reports this model name instead of the requested one. */
  model(name: string): this {
    this.draftFor().model = name;
    return this;
  }
}

/** Writes exactly one turn; used by {@link ScriptBuilder.turn}. Parts never split it. */
export class TurnBuilder extends TurnEditor {
  readonly #draft: Draft = newDraft();

  protected draftFor(): Draft {
    return this.#draft;
  }

  /** The turn as plain data. */
  toJSON(): ScriptTurnInput {
    return { ...this.#draft, toolCalls: [...this.#draft.toolCalls] };
  }
}

/** Writes a whole script; see the module comment for how calls map to turns. */
export class ScriptBuilder extends TurnEditor {
  readonly #drafts: Draft[] = [];
  #models: string[] | undefined;
  /** The latest turn takes no more parts (after `next()` or `turn()`); settings still edit it. */
  #sealed = false;

  protected draftFor(part?: Part): Draft {
    const last = this.#drafts.at(-1);
    if (last && part === undefined) return last;
    if (last && part !== undefined && !this.#sealed) {
      const stage = stageOf(last);
      const order = PART_ORDER[part];
      if (stage < order || (stage === order && part === 'toolCall')) return last;
    }
    this.#sealed = false;
    const draft = newDraft();
    this.#drafts.push(draft);
    return draft;
  }

  /** Seals the latest turn: the next part starts a new turn (settings still edit the latest). */
  next(): this {
    this.#sealed = true;
    return this;
  }

  /** Adds one complete turn, written with a {@link TurnBuilder} or given as data. */
  turn(turn: ScriptTurnInput | ((t: TurnBuilder) => TurnBuilder)): this {
    const data = typeof turn === 'function' ? turn(new TurnBuilder()).toJSON() : turn;
    this.#drafts.push(newDraft(data));
    this.#sealed = true;
    return this;
  }

  /** Sets the models `GET /v1/models` lists. */
  models(...ids: string[]): this {
    this.#models = ids;
    return this;
  }

  /** The script as plain data, e.g. to write a file for `hermes-testkit serve --script`. */
  toJSON(): ScriptInput {
    const turns = this.#drafts.map((draft) => ({ ...draft, toolCalls: [...draft.toolCalls] }));
    return this.#models ? { turns, models: [...this.#models] } : { turns };
  }

  /**
   * The validated script.
   *
   * @throws ValidationError naming the offending turn and field.
   */
  build(): Script {
    return parseOrThrow(ScriptSchema, this.toJSON(), 'script');
  }
}

/** Starts a {@link ScriptBuilder}. */
export function script(): ScriptBuilder {
  return new ScriptBuilder();
}
