/**
 * The queue of scripted turns and the rule that picks one for a request: the first queued turn
 * whose matcher matches answers it; a turn with `times: n` stays queued until it has answered n
 * requests. Turns are numbered in the order they were queued (script order, then `enqueue`), and
 * that number is what recorded requests report.
 */
import type { Matcher, ScriptTurn } from '../script.js';
import type { RequestFacts } from './request-facts.js';

/** A turn picked for a request, with its queue number. */
export interface TakenTurn {
  readonly turn: ScriptTurn;
  /** The turn's position in queue order, from 0. */
  readonly index: number;
}

interface Entry {
  readonly turn: ScriptTurn;
  readonly index: number;
  usesLeft: number;
}

/** True when every field the matcher gives agrees with the request. */
export function matches(matcher: Matcher | undefined, facts: RequestFacts): boolean {
  if (!matcher) return true;
  if (matcher.protocol !== undefined && matcher.protocol !== facts.protocol) return false;
  if (matcher.model !== undefined && matcher.model !== facts.model) return false;
  if (matcher.stream !== undefined && matcher.stream !== facts.stream) return false;
  if (
    matcher.lastUserIncludes !== undefined &&
    !facts.lastUserText.includes(matcher.lastUserIncludes)
  ) {
    return false;
  }
  if (matcher.systemIncludes !== undefined && !facts.systemText.includes(matcher.systemIncludes)) {
    return false;
  }
  return true;
}

/** Queued turns, consumed by matching requests. */
export class TurnQueue {
  #entries: Entry[] = [];
  #nextIndex = 0;

  constructor(turns: readonly ScriptTurn[] = []) {
    this.add(turns);
  }

  /** Appends turns at the end of the queue. */
  add(turns: readonly ScriptTurn[]): void {
    for (const turn of turns) {
      this.#entries.push({ turn, index: this.#nextIndex, usesLeft: turn.times });
      this.#nextIndex += 1;
    }
  }

  /** Empties the queue and restarts numbering from 0 with `turns`. */
  replace(turns: readonly ScriptTurn[]): void {
    this.#entries = [];
    this.#nextIndex = 0;
    this.add(turns);
  }

  /** Takes one use of the first turn matching the request, or `undefined` when none does. */
  take(facts: RequestFacts): TakenTurn | undefined {
    const position = this.#entries.findIndex((entry) => matches(entry.turn.match, facts));
    const entry = this.#entries[position];
    if (!entry) return undefined;
    entry.usesLeft -= 1;
    if (entry.usesLeft === 0) this.#entries.splice(position, 1);
    return { turn: entry.turn, index: entry.index };
  }

  /** Answers still queued: a turn with uses left counts once per use. */
  remaining(): number {
    return this.#entries.reduce((sum, entry) => sum + entry.usesLeft, 0);
  }
}
