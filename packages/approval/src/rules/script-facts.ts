/**
 * Facts about the commands a substitution runs (`$(curl …)`, `<(base64 -d …)`, `$(pgrep
 * hermes)`), gathered in one pass over the script and its nested substitutions. The analyser
 * records each substitution's facts while it walks it; a script it has not walked is summarized
 * here on demand.
 */
import type { MemoScript, Script } from '../shell/ast.js';
import { unwrapCommand } from '../shell/unwrap.js';
import { AGENT_LOOKUP, DECODER, FETCHER, factBits, NOT_ENV_GENERATOR } from './fact-bits.js';

/** Scripts past this many commands (counted a script at a time) are not looked into further. */
const MAX_COMMANDS = 4096;

/** What the commands of a script and of its nested command substitutions do. */
export interface ScriptFacts {
  /** Some command fetches remote content. */
  readonly fetcher: boolean;
  /** Some command decodes its input. */
  readonly decoder: boolean;
  /** Some command looks up the agent's processes. */
  readonly agentLookup: boolean;
  /** There is at least one command and every one prints shell setup (`ssh-agent -s`). */
  readonly onlyEnvGenerators: boolean;
}

/** What is known of one script: its own commands, and its whole tree once computed. */
interface Entry {
  /** The script's own commands: their number, fact bits and substitution scripts. */
  readonly count: number;
  readonly bits: number;
  readonly subs: readonly Script[];
  /** The whole tree's fact bits, or -1 until computed. */
  treeBits: number;
  /** The whole tree's command count when within the cap; over the cap otherwise. */
  total: number;
}

/** The facts for every combination of bits and "has commands", so none is allocated. */
const FACTS: readonly ScriptFacts[] = Array.from({ length: 32 }, (_, index) => ({
  fetcher: (index & FETCHER) !== 0,
  decoder: (index & DECODER) !== 0,
  agentLookup: (index & AGENT_LOOKUP) !== 0,
  onlyEnvGenerators: index >= 16 && (index & NOT_ENV_GENERATOR) === 0,
}));

const NO_SCRIPTS: readonly Script[] = [];

/**
 * The entry kept in the script's memo slot. Facts depend only on the script's own text, so an
 * entry stays true for as long as the script lives, and is collected with it.
 */
function entryOf(script: Script): Entry {
  const slot = script as MemoScript;
  const known = slot.memo as Entry | undefined;
  if (known !== undefined) return known;
  const entry = ownFacts(script);
  slot.memo = entry;
  return entry;
}

function newEntry(count: number, bits: number, subs: readonly Script[] | undefined): Entry {
  // A script without substitutions is its own tree.
  return subs === undefined
    ? { count, bits, subs: NO_SCRIPTS, treeBits: bits, total: count }
    : { count, bits, subs, treeBits: -1, total: 0 };
}

/**
 * Records the facts of `script` gathered while the analyser walked it (`count` commands, their
 * {@link factBits}, and the scripts of their words' substitutions), so a rule asking about the
 * substitution afterwards does not unwrap its commands a second time.
 */
export function recordScriptFacts(
  script: Script,
  count: number,
  bits: number,
  subs: readonly Script[] | undefined,
): void {
  const slot = script as MemoScript;
  if (slot.memo === undefined) slot.memo = newEntry(count, bits, subs);
}

/** Gives `copy`, a script parsed again from the same text, the facts known for `original`. */
export function shareScriptFacts(original: Script, copy: Script): void {
  const slot = copy as MemoScript;
  if (slot.memo === undefined) slot.memo = entryOf(original);
}

function ownFacts(script: Script): Entry {
  let bits = 0;
  let subs: Script[] | undefined;
  for (const command of script.commands) {
    bits |= factBits(unwrapCommand(command));
    for (const word of command.words) {
      for (const sub of word.subs) {
        subs ??= [];
        subs.push(sub.script);
      }
    }
  }
  return newEntry(script.commands.length, bits, subs);
}

/**
 * The facts of `script`: its commands and, breadth first, those in the command substitutions of
 * their words, until {@link MAX_COMMANDS} have been seen. A tree within the cap is the union of
 * its parts, so nested substitutions are summarized once each (per analysis).
 */
export function scriptFacts(script: Script): ScriptFacts {
  const entry = treeOf(script);
  return FACTS[entry.treeBits | (entry.total > 0 ? 16 : 0)] as ScriptFacts;
}

function treeOf(script: Script): Entry {
  const entry = entryOf(script);
  if (entry.treeBits >= 0) return entry;
  let bits = entry.bits;
  let total = entry.count;
  for (const sub of entry.subs) {
    const tree = treeOf(sub);
    total += tree.total;
    bits |= tree.treeBits;
  }
  // Within the cap the breadth-first walk sees every command, so the union is exact.
  if (total <= MAX_COMMANDS) {
    entry.treeBits = bits;
    entry.total = total;
  } else capped(script, entry);
  return entry;
}

/** The breadth-first walk that stops, a script at a time, once the cap has been reached. */
function capped(script: Script, entry: Entry): void {
  let count = 0;
  let bits = 0;
  const queue: Script[] = [script];
  for (let head = 0; head < queue.length && count < MAX_COMMANDS; head += 1) {
    const own = entryOf(queue[head] as Script);
    count += own.count;
    bits |= own.bits;
    for (const sub of own.subs) queue.push(sub);
  }
  // Past the cap the total no longer matters to a parent: it is over the cap too.
  entry.treeBits = bits;
  entry.total = Math.max(count, MAX_COMMANDS + 1);
}
