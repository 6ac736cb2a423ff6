/**
 * The fuzzy matcher's strategies, tried in order from strictest to loosest. Each returns the
 * non-overlapping spans of `content` it considers equal to `old`.
 */
import {
  findAll,
  type MappedText,
  normalizeUnicode,
  normalizeWhitespace,
  similarity,
  unescapeOnce,
} from './fuzzy-normalize.js';

/** Strategy names, in the order they are tried. */
export const MATCH_STRATEGIES = [
  'exact',
  'line-trimmed',
  'whitespace-normalized',
  'indentation-flexible',
  'escape-normalized',
  'unicode-normalized',
  'block-anchor',
] as const;
/** One fuzzy-matching strategy. */
export type MatchStrategy = (typeof MATCH_STRATEGIES)[number];

/** A span of the original content a strategy matched. */
export interface Candidate {
  readonly start: number;
  readonly end: number;
}

/** How a strategy finds spans and what it does to the replacement text. */
export interface Strategy {
  readonly name: MatchStrategy;
  find(content: string, old: string): Candidate[];
  /** Matched whole lines with possibly different indentation: re-indent the replacement. */
  readonly lineBased?: boolean;
  /** Rewrites `new_string` the way the strategy rewrote `old_string`. */
  transformNew?(text: string): string;
}

interface Lines {
  readonly lines: readonly string[];
  readonly starts: readonly number[];
}

function splitLines(content: string): Lines {
  const lines = content.split('\n');
  const starts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    starts.push(offset);
    offset += line.length + 1;
  }
  return { lines, starts };
}

/** The span from the start of line `first` to the end of line `last` (plus `\n` if wanted). */
function lineSpan(index: Lines, first: number, last: number, withBreak: boolean): Candidate {
  const start = index.starts[first] ?? 0;
  const lastStart = index.starts[last] ?? 0;
  let end = lastStart + (index.lines[last]?.length ?? 0);
  if (withBreak && last < index.lines.length - 1) end += 1;
  return { start, end };
}

function oldLinesOf(old: string): { lines: string[]; trailingBreak: boolean } {
  const trailingBreak = old.endsWith('\n');
  return { lines: (trailingBreak ? old.slice(0, -1) : old).split('\n'), trailingBreak };
}

/** Slides a window of `old`'s line count over the content, comparing lines through `key`. */
function lineWindows(content: string, old: string, key: (line: string) => string): Candidate[] {
  const index = splitLines(content);
  const { lines: wanted, trailingBreak } = oldLinesOf(old);
  const keys = wanted.map(key);
  if (keys.every((k) => k === '')) return [];
  const found: Candidate[] = [];
  const total = index.lines.length;
  for (let i = 0; i + wanted.length <= total; i += 1) {
    let same = true;
    for (let j = 0; j < wanted.length && same; j += 1) {
      same = key(index.lines[i + j] ?? '') === keys[j];
    }
    if (!same) continue;
    found.push(lineSpan(index, i, i + wanted.length - 1, trailingBreak));
    i += wanted.length - 1;
  }
  return found;
}

/** Finds `old` in normalized text and maps each hit back to original offsets. */
function mappedSearch(content: MappedText, old: string): Candidate[] {
  if (old.length === 0) return [];
  return findAll(content.text, old).map((at) => ({
    start: content.starts[at] ?? 0,
    end: content.ends[at + old.length - 1] ?? 0,
  }));
}

const NON_ASCII = /[\u0080-\uffff]/;

const collapse = (line: string): string => line.trim().replace(/\s+/g, ' ');

/** Matches non-blank lines in order, ignoring indentation, inner spacing and blank lines. */
function indentationFlexible(content: string, old: string): Candidate[] {
  const index = splitLines(content);
  const wanted = old
    .split('\n')
    .map(collapse)
    .filter((line) => line !== '');
  if (wanted.length === 0) return [];
  const found: Candidate[] = [];
  for (let i = 0; i < index.lines.length; i += 1) {
    if (collapse(index.lines[i] ?? '') !== wanted[0]) continue;
    let matched = 1;
    let at = i;
    while (matched < wanted.length && at + 1 < index.lines.length) {
      at += 1;
      const line = collapse(index.lines[at] ?? '');
      if (line === '') continue;
      if (line !== wanted[matched]) break;
      matched += 1;
    }
    if (matched < wanted.length) continue;
    found.push(lineSpan(index, i, at, old.endsWith('\n')));
    i = at;
  }
  return found;
}

/** Minimum middle-section similarity for a block-anchor match. */
export const BLOCK_ANCHOR_THRESHOLD = 0.5;

/** First and last lines match exactly (trimmed); the middle only has to be similar. */
function blockAnchor(content: string, old: string): Candidate[] {
  const { lines: wanted, trailingBreak } = oldLinesOf(old);
  const first = wanted[0]?.trim() ?? '';
  const last = wanted[wanted.length - 1]?.trim() ?? '';
  if (wanted.length < 3 || first === '' || last === '') return [];
  const middle = wanted.slice(1, -1).map(collapse).join('\n');
  const index = splitLines(content);
  const found: Candidate[] = [];
  for (let i = 0; i + wanted.length <= index.lines.length; i += 1) {
    const end = i + wanted.length - 1;
    if (index.lines[i]?.trim() !== first || index.lines[end]?.trim() !== last) continue;
    const body = index.lines
      .slice(i + 1, end)
      .map(collapse)
      .join('\n');
    if (similarity(body, middle) < BLOCK_ANCHOR_THRESHOLD) continue;
    found.push(lineSpan(index, i, end, trailingBreak));
    i = end;
  }
  return found;
}

/** Every strategy, in {@link MATCH_STRATEGIES} order. */
export const STRATEGIES: readonly Strategy[] = [
  {
    name: 'exact',
    find: (content, old) =>
      findAll(content, old).map((at) => ({ start: at, end: at + old.length })),
  },
  {
    name: 'line-trimmed',
    lineBased: true,
    find: (content, old) => lineWindows(content, old, (l) => l.trim()),
  },
  {
    name: 'whitespace-normalized',
    find: (content, old) => {
      // Non-space runs survive normalization unchanged: a missing one rules out a match cheaply.
      const tokens = old.split(/\s+/).filter((t) => t !== '');
      if (tokens.some((token) => !content.includes(token))) return [];
      return mappedSearch(normalizeWhitespace(content), normalizeWhitespace(old).text);
    },
  },
  { name: 'indentation-flexible', lineBased: true, find: indentationFlexible },
  {
    name: 'escape-normalized',
    transformNew: unescapeOnce,
    find: (content, old) => {
      const plain = unescapeOnce(old);
      return plain === old
        ? []
        : findAll(content, plain).map((at) => ({ start: at, end: at + plain.length }));
    },
  },
  {
    name: 'unicode-normalized',
    find: (content, old) => {
      // Pure ASCII normalizes to itself, and the exact strategy has already failed.
      if (!NON_ASCII.test(content) && !NON_ASCII.test(old)) return [];
      return mappedSearch(normalizeUnicode(content), normalizeUnicode(old).text);
    },
  },
  { name: 'block-anchor', lineBased: true, find: blockAnchor },
];
