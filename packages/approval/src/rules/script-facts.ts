/**
 * Facts about the commands a substitution runs (`$(curl …)`, `<(base64 -d …)`, `$(pgrep
 * hermes)`), gathered in one pass over the script and its nested substitutions.
 */
import type { Script } from '../shell/ast.js';
import { unwrapCommand } from '../shell/unwrap.js';
import { isAgentLookup, isDecoder, isFetcher } from './carriers.js';

/** Tools whose output is shell setup meant for `eval "$(tool …)"`. */
const ENV_GENERATORS = new Set([
  'ssh-agent',
  'pyenv',
  'rbenv',
  'nodenv',
  'direnv',
  'brew',
  'dircolors',
  'keychain',
  'opam',
  'fnm',
  'zoxide',
  'starship',
  'conda',
  'mise',
  'rtx',
  'goenv',
  'jenv',
  'luarocks',
  'gpg-agent',
]);

/** Scripts past this many commands (counted a script at a time) are not looked into further. */
const MAX_COMMANDS = 4096;

const FETCHER = 1;
const DECODER = 2;
const AGENT_LOOKUP = 4;
const NOT_ENV_GENERATOR = 8;

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

/** One script's own commands, summarized: their count, fact bits and substitution scripts. */
interface OwnFacts {
  readonly count: number;
  readonly bits: number;
  readonly subs: readonly Script[];
}

/** A script's facts with their bits and the number of commands they cover. */
interface TreeFacts extends ScriptFacts {
  readonly bits: number;
  /** The whole tree's command count when within the cap; over the cap otherwise. */
  readonly total: number;
}

/** What is known of one script: its own commands, and its whole tree once computed. */
interface Entry {
  readonly own: OwnFacts;
  tree: TreeFacts | undefined;
}

const NO_SCRIPTS: readonly Script[] = Object.freeze([]);
/** Entries kept per analysis before the cache starts over, so memory stays bounded. */
const CACHE_LIMIT = 16_384;

/**
 * The cache of the analysis under way. It lives only as long as that analysis, so a parsed
 * tree is not kept alive (or walked by the garbage collector) once its command is judged.
 */
let cache: Map<Script, Entry> | undefined;

/** Runs `analysis` with a fresh script-facts cache, dropped when it returns. */
export function withScriptFactsCache<T>(analysis: () => T): T {
  const outer = cache;
  cache = new Map();
  try {
    return analysis();
  } finally {
    cache = outer;
    lastScript = undefined;
    lastEntry = undefined;
  }
}

/** The last entry looked up: rules ask about the same substitution several times in a row. */
let lastScript: Script | undefined;
let lastEntry: Entry | undefined;

function entryOf(script: Script): Entry {
  if (script === lastScript && lastEntry !== undefined) return lastEntry;
  let entry = cache?.get(script);
  if (entry === undefined) {
    entry = { own: ownFacts(script), tree: undefined };
    // Only scripts with substitutions of their own are kept: their facts are asked for again
    // at every level of a deep nesting. A leaf is cheap to summarize again.
    if (cache !== undefined && entry.own.subs.length > 0) {
      if (cache.size >= CACHE_LIMIT) cache.clear();
      cache.set(script, entry);
    }
  }
  lastScript = script;
  lastEntry = entry;
  return entry;
}

function ownFacts(script: Script): OwnFacts {
  let bits = 0;
  const subs: Script[] = [];
  for (const command of script.commands) {
    const inv = unwrapCommand(command);
    if (isFetcher(inv)) bits |= FETCHER;
    if (isDecoder(inv)) bits |= DECODER;
    if (isAgentLookup(inv)) bits |= AGENT_LOOKUP;
    if (!ENV_GENERATORS.has(inv.name)) bits |= NOT_ENV_GENERATOR;
    for (const word of command.words) {
      for (const sub of word.subs) subs.push(sub.script);
    }
  }
  return { count: script.commands.length, bits, subs: subs.length > 0 ? subs : NO_SCRIPTS };
}

function treeFacts(bits: number, total: number): TreeFacts {
  return {
    fetcher: (bits & FETCHER) !== 0,
    decoder: (bits & DECODER) !== 0,
    agentLookup: (bits & AGENT_LOOKUP) !== 0,
    onlyEnvGenerators: total > 0 && (bits & NOT_ENV_GENERATOR) === 0,
    bits,
    total,
  };
}

/**
 * The facts of `script`: its commands and, breadth first, those in the command substitutions of
 * their words, until {@link MAX_COMMANDS} have been seen. A tree within the cap is the union of
 * its parts, so nested substitutions are summarized once each (per analysis).
 */
export function scriptFacts(script: Script): ScriptFacts {
  return factsOf(script);
}

function factsOf(script: Script): TreeFacts {
  const entry = entryOf(script);
  if (entry.tree !== undefined) return entry.tree;
  let bits = entry.own.bits;
  let total = entry.own.count;
  for (const sub of entry.own.subs) {
    const facts = factsOf(sub);
    total += facts.total;
    bits |= facts.bits;
  }
  // Within the cap the breadth-first walk sees every command, so the union is exact.
  entry.tree = total <= MAX_COMMANDS ? treeFacts(bits, total) : capped(script);
  return entry.tree;
}

/** The breadth-first walk that stops, a script at a time, once the cap has been reached. */
function capped(script: Script): TreeFacts {
  let count = 0;
  let bits = 0;
  const queue: Script[] = [script];
  for (let head = 0; head < queue.length && count < MAX_COMMANDS; head += 1) {
    const own = entryOf(queue[head] as Script).own;
    count += own.count;
    bits |= own.bits;
    for (const sub of own.subs) queue.push(sub);
  }
  // Past the cap the total no longer matters to a parent: it is over the cap too.
  return treeFacts(bits, Math.max(count, MAX_COMMANDS + 1));
}
