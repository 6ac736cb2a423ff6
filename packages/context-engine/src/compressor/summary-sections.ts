/**
 * Reading and writing the sectioned summary: split text into `## Heading` sections, merge a new
 * summary with the previous one section by section, and render the final text.
 */
import {
  CODE_SECTIONS,
  MODEL_SECTIONS,
  type SectionName,
  SUMMARY_MARKER,
  summaryPrefix,
  type UserPosition,
} from './summary-template.js';

/** Section bodies by heading, in the template's order when rendered. */
export type Sections = Map<string, string>;

const HEADING = /^##\s+(.+?)\s*$/;
const KNOWN = new Map<string, string>(
  [...MODEL_SECTIONS, ...CODE_SECTIONS].map((s) => [normalize(s), s]),
);

/** Lower-case heading without punctuation, so "## goals:" matches "Goals". */
function normalize(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Splits summary text into sections; text before the first heading is dropped. */
export function parseSections(text: string): Sections {
  const sections: Sections = new Map();
  let current: string | undefined;
  let lines: string[] = [];
  const flush = () => {
    if (current !== undefined) sections.set(current, lines.join('\n').trim());
  };
  for (const line of text.split('\n')) {
    const match = HEADING.exec(line);
    if (match) {
      flush();
      const raw = match[1] as string;
      current = KNOWN.get(normalize(raw)) ?? raw;
      lines = [];
    } else if (current !== undefined) {
      lines.push(line);
    }
  }
  flush();
  return sections;
}

/** The model-written sections of a previous summary message (prefix and appendices dropped). */
export function previousModelSections(summaryText: string): Sections {
  const all = parseSections(summaryText);
  const model: Sections = new Map();
  for (const name of MODEL_SECTIONS) {
    const body = all.get(name);
    if (body !== undefined) model.set(name, body);
  }
  return model;
}

/** Whether a message body is a summary this engine wrote. */
export function isSummaryText(text: string): boolean {
  return text.startsWith(SUMMARY_MARKER);
}

/** An empty section body: "None", "-", or nothing. */
function isEmptyBody(body: string | undefined): boolean {
  return body === undefined || /^(none\.?|n\/a|-)?$/i.test(body.trim());
}

/**
 * The update merged over the previous summary. A section the update wrote replaces the old one
 * (so "None" clears it: an answered question leaves Open Questions, a finished TODO leaves
 * Pending TODOs); a heading the update left out keeps its previous body, so a summarizer that
 * skips a heading loses nothing.
 */
export function mergeSections(previous: Sections, update: Sections): Sections {
  const merged: Sections = new Map();
  for (const name of MODEL_SECTIONS) {
    merged.set(name, update.has(name) ? (update.get(name) ?? '') : (previous.get(name) ?? ''));
  }
  return withoutResolvedQuestions(merged);
}

/** A list item reduced to its words: no bullet or number, lower case, no punctuation. */
function itemWords(line: string): string {
  return line
    .replace(/^\s*(?:[-*•]|\d+[.)])\s*/, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The shortest open question worth matching; shorter ones would match by accident. */
const MIN_QUESTION_CHARS = 8;

/**
 * `sections` with every Open Questions item that Resolved Questions also lists (possibly with its
 * answer appended) removed, so a question never stands in both.
 */
export function withoutResolvedQuestions(sections: Sections): Sections {
  const open = sections.get('Open Questions');
  const resolved = sections.get('Resolved Questions');
  if (isEmptyBody(open) || isEmptyBody(resolved)) return sections;
  const answered = (resolved as string).split('\n').map(itemWords).filter(Boolean);
  const kept = (open as string).split('\n').filter((line) => {
    const words = itemWords(line);
    return words.length < MIN_QUESTION_CHARS || !answered.some((a) => a.includes(words));
  });
  const out: Sections = new Map(sections);
  out.set('Open Questions', kept.some((l) => l.trim() !== '') ? kept.join('\n').trim() : 'None');
  return out;
}

/**
 * The previous summary with fallback notes appended under each heading: a fallback knows less
 * than the model did, so it adds to the previous sections instead of replacing them.
 */
export function appendSections(previous: Sections, additions: Sections): Sections {
  const merged: Sections = new Map();
  for (const name of MODEL_SECTIONS) {
    const before = previous.get(name);
    const added = additions.get(name);
    if (isEmptyBody(before)) merged.set(name, added ?? '');
    else if (isEmptyBody(added)) merged.set(name, before as string);
    else merged.set(name, `${before}\n${added}`);
  }
  return withoutResolvedQuestions(merged);
}

/**
 * Renders the prefix (its closing instruction fitted to where the latest user message is), the
 * model sections, then the code sections, every heading present.
 */
export function renderSummary(
  sections: Sections,
  appendix: ReadonlyMap<SectionName, string>,
  position: UserPosition = 'after',
): string {
  const body = MODEL_SECTIONS.map((name) => {
    const text = sections.get(name);
    return `## ${name}\n${isEmptyBody(text) ? 'None' : text}`;
  });
  for (const name of CODE_SECTIONS) {
    const text = appendix.get(name);
    if (text !== undefined) body.push(`## ${name}\n${isEmptyBody(text) ? 'None' : text}`);
  }
  return `${summaryPrefix(position)}\n\n${body.join('\n\n')}`;
}
