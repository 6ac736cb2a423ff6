/**
 * The fuzzy find-and-replace behind `patch`: tries strategies from exact to loose and uses the
 * first that finds anything, so a near-miss `old_string` (different indentation, smart quotes,
 * escaped newlines) still lands, while an ambiguous one is refused with the candidates listed.
 */
import { CoreToolError } from './errors.js';
import {
  type Candidate,
  type MatchStrategy,
  STRATEGIES,
  type Strategy,
} from './fuzzy-strategies.js';

/** One match: offsets into the content and the 1-based line it starts on. */
export interface TextMatch {
  readonly start: number;
  readonly end: number;
  readonly line: number;
}

/** What {@link findMatches} found: the strategy that matched and every span it matched. */
export interface MatchSet {
  readonly strategy: MatchStrategy;
  readonly matches: readonly TextMatch[];
}

/** Options of {@link fuzzyReplace}. */
export interface FuzzyReplaceOptions {
  /** Replace every match instead of refusing when there is more than one. */
  readonly replaceAll?: boolean;
}

/** The result of {@link fuzzyReplace}. */
export interface FuzzyReplaceResult {
  /** The new content. */
  readonly content: string;
  /** The strategy that matched. */
  readonly strategy: MatchStrategy;
  /** 1-based first lines of the replaced spans, in file order. */
  readonly lines: readonly number[];
}

/** Why a fuzzy replace was refused, in `CoreToolError.details.kind`. */
export type FuzzyMatchFailure = 'empty' | 'identical' | 'not_found' | 'ambiguous';

function lineOf(content: string, offset: number): number {
  let line = 1;
  for (let i = content.indexOf('\n'); i >= 0 && i < offset; i = content.indexOf('\n', i + 1)) {
    line += 1;
  }
  return line;
}

function firstMatchingStrategy(
  content: string,
  old: string,
): { strategy: Strategy; found: Candidate[] } | undefined {
  for (const strategy of STRATEGIES) {
    const found = strategy.find(content, old);
    if (found.length > 0) return { strategy, found };
  }
  return undefined;
}

/** Finds `old` in `content` with the first strategy that matches; `undefined` when none does. */
export function findMatches(content: string, old: string): MatchSet | undefined {
  if (old.length === 0) return undefined;
  const hit = firstMatchingStrategy(content, old);
  if (!hit) return undefined;
  return {
    strategy: hit.strategy.name,
    matches: hit.found.map((c) => ({ ...c, line: lineOf(content, c.start) })),
  };
}

const leadingSpace = (text: string): string => /^[ \t]*/.exec(text)?.[0] ?? '';
const firstNonBlank = (text: string): string =>
  text.split('\n').find((line) => line.trim() !== '') ?? '';

/** Shifts `replacement`'s indentation from `old`'s base indent to the matched block's. */
function reindent(replacement: string, old: string, matched: string): string {
  const from = leadingSpace(firstNonBlank(old));
  const to = leadingSpace(firstNonBlank(matched));
  if (from === to) return replacement;
  return replacement
    .split('\n')
    .map((line) => {
      if (line.trim() === '') return line;
      return line.startsWith(from) ? to + line.slice(from.length) : to + line.trimStart();
    })
    .join('\n');
}

function describeCandidates(content: string, matches: readonly TextMatch[]): string {
  const shown = matches.slice(0, 10).map((m) => {
    const text = firstNonBlank(content.slice(m.start, m.end)).trim();
    return `  line ${m.line}: ${text.length > 80 ? `${text.slice(0, 77)}...` : text}`;
  });
  const more = matches.length > 10 ? `\n  … and ${matches.length - 10} more` : '';
  return `${shown.join('\n')}${more}`;
}

/**
 * Replaces `oldString` with `newString` in `content`, through the first strategy that matches.
 *
 * @throws CoreToolError with `details.kind` set to a {@link FuzzyMatchFailure}: `empty` (no
 *   `old_string`), `identical` (nothing would change), `not_found`, or `ambiguous` (several
 *   matches and `replaceAll` not set; the message lists each candidate's line).
 */
export function fuzzyReplace(
  content: string,
  oldString: string,
  newString: string,
  options: FuzzyReplaceOptions = {},
): FuzzyReplaceResult {
  if (oldString.length === 0) {
    throw new CoreToolError('old_string is empty: give the exact text to replace.', {
      kind: 'empty',
    });
  }
  if (oldString === newString) {
    throw new CoreToolError('old_string and new_string are identical: nothing would change.', {
      kind: 'identical',
    });
  }
  const hit = firstMatchingStrategy(content, oldString);
  if (!hit) {
    throw new CoreToolError(
      'old_string was not found (tried exact, line-trimmed, whitespace, indentation, escape, unicode and block-anchor matching). Re-read the file with read_file and copy the text exactly.',
      { kind: 'not_found' },
    );
  }
  const matches = hit.found.map((c) => ({ ...c, line: lineOf(content, c.start) }));
  if (matches.length > 1 && options.replaceAll !== true) {
    throw new CoreToolError(
      `old_string matches ${matches.length} places (${hit.strategy.name} match):\n${describeCandidates(content, matches)}\nAdd surrounding lines to old_string to pick one, or set replace_all to change them all.`,
      { kind: 'ambiguous', lines: matches.map((m) => m.line) },
    );
  }
  const base = hit.strategy.transformNew ? hit.strategy.transformNew(newString) : newString;
  let next = content;
  for (const match of [...matches].reverse()) {
    const original = content.slice(match.start, match.end);
    const text = hit.strategy.lineBased ? reindent(base, oldString, original) : base;
    next = next.slice(0, match.start) + text + next.slice(match.end);
  }
  if (next === content) {
    throw new CoreToolError('The replacement leaves the file unchanged: nothing to do.', {
      kind: 'identical',
    });
  }
  return { content: next, strategy: hit.strategy.name, lines: matches.map((m) => m.line) };
}
