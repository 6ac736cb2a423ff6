/**
 * A feed: text that reaches a command as input — through a pipe, a here-document, a here-string
 * or a file written earlier in the same line — as far as the line itself says what it is. A shell
 * that reads a feed runs it, so the analyser judges the feed as the script it is.
 */
import type { HereDoc, Script, Substitution, Word } from '../shell/ast.js';

/** Known text reaching a command. `undefined` stands for text the line does not know. */
export interface Feed {
  /**
   * What the text may be: usually one string; several when a file was written more than one way
   * (`>` twice, `>>` that may not have run). Each is judged as a script of its own.
   */
  readonly texts: readonly string[];
  /**
   * Part of the text is computed when the line runs from values it does not set: an unknown
   * `$VAR`, a transform of known text (`echo … | rev`), a format that was not modelled.
   */
  readonly dynamic: boolean;
  /** `FETCHER` / `DECODER` bits (`rules/fact-bits.ts`): the text holds fetched or decoded bytes. */
  readonly origin: number;
  /** The substitutions of the words the text came from, by source: they were walked already. */
  readonly walked?: ReadonlyMap<string, Script> | undefined;
}

/** Most alternatives a feed keeps; past it the feed is marked dynamic. */
export const MAX_ALTERNATIVES = 8;

/** Nothing: the output of `true`, or of a command whose stdout goes to a file. */
export const EMPTY_FEED: Feed = { texts: [''], dynamic: false, origin: 0 };

/** Text computed at run time from known text (`echo x | rev`): only its being computed is known. */
export const COMPUTED_FEED: Feed = { texts: [], dynamic: true, origin: 0 };

/** Whether `feed` tells anything (text, or that it is computed). */
export function isKnown(feed: Feed | undefined): feed is Feed {
  return feed !== undefined && (feed.texts.length > 0 || feed.dynamic || feed.origin !== 0);
}

/** One feed that may be any of `feeds` (a command given several inputs), or `undefined`. */
export function unionFeeds(feeds: readonly Feed[]): Feed | undefined {
  if (feeds.length <= 1) return feeds[0];
  const texts: string[] = [];
  let dynamic = false;
  let origin = 0;
  let walked: ReadonlyMap<string, Script> | undefined;
  for (const feed of feeds) {
    for (const text of feed.texts) {
      if (texts.length < MAX_ALTERNATIVES) texts.push(text);
      else dynamic = true;
    }
    dynamic ||= feed.dynamic;
    origin |= feed.origin;
    walked = mergeWalked(walked, feed.walked);
  }
  return { texts, dynamic, origin, walked };
}

/** Whether `feed` holds text, or is computed: something a reader could act on. */
export function carriesText(feed: Feed | undefined): feed is Feed {
  if (feed === undefined || feed === EMPTY_FEED) return false;
  if (feed.dynamic) return true;
  for (const text of feed.texts) if (text !== '') return true;
  return false;
}

/** `a` followed by `b`, for every pair of alternatives (at most {@link MAX_ALTERNATIVES}). */
export function concatFeeds(a: Feed, b: Feed): Feed {
  const texts: string[] = [];
  let dynamic = a.dynamic || b.dynamic;
  for (const first of a.texts) {
    for (const second of b.texts) {
      if (texts.length < MAX_ALTERNATIVES) texts.push(first + second);
      else dynamic = true;
    }
  }
  return { texts, dynamic, origin: a.origin | b.origin, walked: mergeWalked(a.walked, b.walked) };
}

function mergeWalked(
  a: ReadonlyMap<string, Script> | undefined,
  b: ReadonlyMap<string, Script> | undefined,
): ReadonlyMap<string, Script> | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  return new Map([...a, ...b]);
}

/** The substitutions of `words`, by source, or `undefined` when there are none. */
export function walkedSubs(
  words: readonly { readonly subs: readonly Substitution[] }[],
): ReadonlyMap<string, Script> | undefined {
  let known: Map<string, Script> | undefined;
  for (const word of words) {
    for (const sub of word.subs) {
      known ??= new Map();
      known.set(sub.script.source, sub.script);
    }
  }
  return known;
}

/** `$` followed by a character that starts a parameter expansion (not `$(`, which is a command). */
function startsParameter(code: number): boolean {
  return (
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    (code >= 48 && code <= 57) ||
    code === 95 || // _
    code === 123 || // {
    code === 64 || // @
    code === 42 || // *
    code === 35 || // #
    code === 63 || // ?
    code === 33 || // !
    code === 36 || // $
    code === 45 // -
  );
}

/**
 * Whether `text` holds a parameter expansion (`$X`, `${X}`, `$1`); with `escapes`, a `$` right
 * after a backslash is not one. May say yes for a `$` that was single-quoted: a feed is then
 * thought dynamic, which only asks.
 */
export function hasParameter(text: string, escapes = false): boolean {
  for (let at = text.indexOf('$'); at >= 0; at = text.indexOf('$', at + 1)) {
    if (escapes && text.charCodeAt(at - 1) === 92) continue;
    if (startsParameter(text.charCodeAt(at + 1))) return true;
  }
  return false;
}

/** Whether some word in `words` expands a parameter the analyser could not resolve. */
export function wordsDynamic(words: readonly Word[]): boolean {
  return words.some((word) => word.dynamic && hasParameter(word.value));
}

/** A feed of one text that came from `words`. */
export function feedOfWords(text: string, words: readonly Word[], exact = true): Feed {
  // Most words are static: one cheap pass finds whether any needs a closer look.
  let dynamic = false;
  for (const word of words) dynamic ||= word.dynamic;
  return {
    texts: [text],
    dynamic: !exact || (dynamic && wordsDynamic(words)),
    origin: 0,
    walked: dynamic ? walkedSubs(words) : undefined,
  };
}

/**
 * The text of a here-document as the command reads it. An expanding body (`<<EOF`) loses the
 * backslash before `$`, `` ` `` and `\`, and its line continuations; parameters in it are
 * dynamic. A quoted delimiter (`<<'EOF'`) leaves the body as written.
 */
export function heredocFeed(doc: HereDoc): Feed {
  if (!doc.expand) return { texts: [doc.body], dynamic: false, origin: 0 };
  let text = '';
  let from = 0;
  for (let at = doc.body.indexOf('\\'); at >= 0; at = doc.body.indexOf('\\', from)) {
    const next = doc.body.charAt(at + 1);
    text += doc.body.slice(from, at);
    if (next === '$' || next === '`' || next === '\\') text += next;
    else if (next !== '\n') text += `\\${next}`;
    from = at + 2;
  }
  text += doc.body.slice(from);
  return {
    texts: [text],
    dynamic: hasParameter(doc.body, true),
    origin: 0,
    walked: walkedSubs([{ subs: doc.subs }]),
  };
}

/** The text of a here-string (`<<< word`): the word and a newline. */
export function hereStringFeed(word: Word): Feed {
  return feedOfWords(`${word.value}\n`, [word]);
}
