/**
 * The Anchor Index: paths, commands and IDs found by pattern in the summarized span, so exact
 * strings stay findable whatever the summarizer wrote. It reads redacted text only, and never
 * indexes a value that sits right after a secret-like label, even one whose shape no redactor
 * knows: an index entry is persisted and re-sent on every request.
 */
import type { ChatMessage } from '@hermes/protocol';
import { contentText, oneLine } from './message-text.js';
import { redactSecrets } from './redact.js';

/** Anchors kept per kind from one span; merged lists keep at most twice as many. */
export const MAX_ANCHORS_PER_KIND = 40;
const MAX_MERGED_PER_KIND = 2 * MAX_ANCHORS_PER_KIND;

/** The anchors of a span (or of a previous summary), by kind, in order of appearance. */
export interface Anchors {
  readonly paths: readonly string[];
  readonly commands: readonly string[];
  readonly ids: readonly string[];
}

const LABELS = { paths: 'Paths', commands: 'Commands', ids: 'IDs' } as const;
type Kind = keyof typeof LABELS;

const PATH = /(?:^|[\s"'`(=])((?:~|\.{1,2})?\/?(?:[\w.@-]+\/)+[\w.@-]+)/g;
const ID_PATTERNS: readonly RegExp[] = [
  /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi,
  /\b[0-9a-f]{7,40}\b/g,
  /(?<![\w/])#\d{1,7}\b/g,
  /\b[A-Z][A-Z0-9]{1,9}-\d{1,6}\b/g,
];

/**
 * A secret-like label right before a value: `sig=`, `cookie: `, `X-Auth-Thing: ` (label, then
 * `:` or `=`), or `bearer `, `passphrase ` (the stronger words, then only a space). The value
 * may sit inside a longer token after the label (`sig=sha256=<hex>`).
 */
const SECRET_LABEL_ASSIGNED =
  /(?:key|token|secret|passw\w*|passphrase|credentials?|signature|sig|auth\w*|cookie|bearer|private|salt|otp|pin)["']?\s*[:=]\s*["']?[^\s"']*$/i;
const SECRET_LABEL_SPACED =
  /(?:bearer|token|password|passwd|passphrase|secret|api[_-]?key|apikey)\s+["']?[^\s"']*$/i;

/** Words with a slash that are not paths. */
const NOT_PATHS = new Set(['n/a', 'and/or', 'w/o', 'i/o', 'km/h', 'y/n', 'yes/no']);

/** Whether the text before `index` (on the same line) ends in a secret-like label. */
function inSecretContext(text: string, index: number): boolean {
  // A fixed window, so a long single-line output costs the same per match wherever it is.
  const window = text.slice(Math.max(0, index - 80), index);
  const before = window.slice(window.lastIndexOf('\n') + 1);
  return SECRET_LABEL_ASSIGNED.test(before) || SECRET_LABEL_SPACED.test(before);
}

/**
 * `value` as a path: trailing punctuation of the sentence stripped (`src/a.ts.` → `src/a.ts`),
 * or `undefined` for what only looks like one (fractions, ratios, dates, `n/a`).
 */
export function normalizePath(value: string): string | undefined {
  const path = value.replace(/[.,:;!?)\]}'"]+$/, '');
  if (!path.includes('/') || path.endsWith('/')) return undefined;
  if (/^[\d./-]+$/.test(path)) return undefined;
  if (NOT_PATHS.has(path.toLowerCase())) return undefined;
  return path;
}

/** A hex run must hold a digit and a letter, or it is an ordinary word or number. */
function isPlainWordOrNumber(value: string): boolean {
  return /^[0-9a-f]+$/i.test(value) && !(/\d/.test(value) && /[a-f]/i.test(value));
}

/** What one scan of a span found for one kind, before secret values are taken out. */
interface Found {
  readonly values: Set<string>;
  /** Values seen right after a secret-like label anywhere in the span: never indexed. */
  readonly secret: Set<string>;
}

/** Most secret values remembered per kind; more than this many is not a real conversation. */
const MAX_SECRET_VALUES = 10_000;

/** Records each match of `pattern` in `text` (group 1 if present) as usable or secret. */
function collect(into: Found, pattern: RegExp, text: string, kind: Kind): void {
  for (const match of text.matchAll(pattern)) {
    const raw = match[1] ?? match[0];
    const value = kind === 'paths' ? normalizePath(raw) : raw;
    if (value === undefined || isPlainWordOrNumber(value) || into.secret.has(value)) continue;
    const at = (match.index ?? 0) + match[0].length - raw.length;
    if (inSecretContext(text, at)) {
      if (into.secret.size < MAX_SECRET_VALUES) into.secret.add(value);
    } else if (into.values.size < MAX_ANCHORS_PER_KIND && !into.values.has(value)) {
      into.values.add(value);
    }
  }
}

/** The usable values of `found`: in order of appearance, none that was ever seen as a secret. */
function usable(found: Found): string[] {
  return [...found.values].filter((v) => !found.secret.has(v));
}

/** The `command` argument of a tool call, when its arguments are JSON holding one. */
function commandArgument(raw: string): string | undefined {
  if (!raw.includes('"command"')) return undefined;
  try {
    const value: unknown = JSON.parse(raw);
    const command = (value as { command?: unknown } | null)?.command;
    return typeof command === 'string' ? command : undefined;
  } catch {
    return undefined;
  }
}

/** The anchors of a span whose messages are already redacted (see `redacted-span.ts`). */
export function collectAnchors(span: readonly ChatMessage[]): Anchors {
  const paths: Found = { values: new Set(), secret: new Set() };
  const ids: Found = { values: new Set(), secret: new Set() };
  const commands = new Set<string>();
  for (const message of span) {
    const calls = message.role === 'assistant' ? (message.tool_calls ?? []) : [];
    for (const call of calls) {
      const command = commandArgument(call.function.arguments);
      if (command && commands.size < MAX_ANCHORS_PER_KIND) {
        commands.add(oneLine(redactSecrets(command), 200));
      }
    }
    // The span is redacted already; the rendered index is redacted once more by the caller.
    const all = [contentText(message.content), ...calls.map((c) => c.function.arguments)];
    for (const text of all) {
      collect(paths, PATH, text, 'paths');
      for (const pattern of ID_PATTERNS) collect(ids, pattern, text, 'ids');
    }
  }
  return { paths: usable(paths), commands: [...commands], ids: usable(ids) };
}

/**
 * The kind an unlabelled earlier anchor most likely is; `undefined` for one older versions took
 * for a path wrongly (`3/4`, `2026/12/01`), which is dropped.
 */
function guessKind(value: string): Kind | undefined {
  if (!/\s/.test(value) && value.includes('/')) {
    return normalizePath(value) === undefined ? undefined : 'paths';
  }
  const whole = (p: RegExp) => new RegExp(`^(?:${p.source})$`, p.flags.replace('g', ''));
  return ID_PATTERNS.some((p) => whole(p).test(value)) ? 'ids' : 'commands';
}

/** Reads the anchors back from a rendered index (older formats' `Earlier:` lists are sorted by kind). */
export function parseAnchors(text: string | undefined): Anchors {
  const out: Record<Kind, string[]> = { paths: [], commands: [], ids: [] };
  let kind: Kind | undefined;
  for (const line of (text ?? '').split('\n')) {
    const heading = /^(\w[\w ]*):$/.exec(line.trim());
    if (heading) {
      const found = (Object.keys(LABELS) as Kind[]).find((k) => LABELS[k] === heading[1]);
      kind = found;
      continue;
    }
    if (!line.startsWith('- ')) continue;
    const value = line.slice(2).trim();
    const into = kind ?? guessKind(value);
    if (into !== undefined) out[into].push(value);
  }
  return out;
}

/** `fresh` then the `earlier` anchors not already listed, per kind, cleaned and capped. */
export function mergeAnchors(fresh: Anchors, earlier: Anchors): Anchors {
  const merge = (kind: Kind) => {
    const seen = new Set<string>();
    for (const raw of [...fresh[kind], ...earlier[kind]]) {
      if (seen.size >= MAX_MERGED_PER_KIND) break;
      const clean = redactSecrets(raw);
      const value = kind === 'paths' ? normalizePath(clean) : clean;
      if (value !== undefined && value !== '') seen.add(value);
    }
    return [...seen];
  };
  return { paths: merge('paths'), commands: merge('commands'), ids: merge('ids') };
}

/** The index as text: one bullet list per kind; empty when nothing was found. */
export function renderAnchors(anchors: Anchors): string {
  const lines: string[] = [];
  for (const kind of Object.keys(LABELS) as Kind[]) {
    if (anchors[kind].length === 0) continue;
    lines.push(`${LABELS[kind]}:`, ...anchors[kind].map((v) => `- ${v}`));
  }
  return lines.join('\n');
}
