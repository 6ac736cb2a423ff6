/** The word the word reader is building, and the sink that receives finished words. */
import type { Substitution, Word } from './ast.js';

/** Shared by every word without substitutions, so plain words allocate no array. */
export const NO_SUBS: readonly Substitution[] = [];

/** Receives the words a reader produces (an unquoted `$IFS` can make one word several). */
export interface WordSink {
  add(word: Word): void;
}

/** The word being read. */
export interface Acc {
  value: string;
  quoted: boolean;
  dynamic: boolean;
  /** Allocated on the first substitution. */
  subs: Substitution[] | undefined;
}

/** A fresh, empty {@link Acc}. */
export function newAcc(): Acc {
  return { value: '', quoted: false, dynamic: false, subs: undefined };
}

/** Adds `sub` to the word, allocating its list on the first one. */
export function pushSub(acc: Acc, sub: Substitution): void {
  if (acc.subs === undefined) acc.subs = [sub];
  else acc.subs.push(sub);
}
