/**
 * Character-level normalizers for the fuzzy matcher. Each produces the normalized text plus, for
 * every normalized character, the span of original text it came from, so a match found in
 * normalized text maps back to exact offsets in the file.
 */

/** Normalized text and, per normalized character, its source span `[starts[i], ends[i])`. */
export interface MappedText {
  readonly text: string;
  readonly starts: ArrayLike<number>;
  readonly ends: ArrayLike<number>;
}

/** Builds a {@link MappedText} by appending normalized pieces with their source spans. */
class MappedBuilder {
  private readonly pieces: string[] = [];
  private starts: Int32Array;
  private ends: Int32Array;
  private length = 0;

  constructor(capacity: number) {
    this.starts = new Int32Array(Math.max(16, capacity));
    this.ends = new Int32Array(Math.max(16, capacity));
  }

  push(piece: string, start: number, end: number): void {
    if (this.length + piece.length > this.starts.length) this.grow(this.length + piece.length);
    for (let i = 0; i < piece.length; i += 1) {
      this.starts[this.length] = start;
      this.ends[this.length] = end;
      this.length += 1;
    }
    this.pieces.push(piece);
  }

  /** Appends `source[from, to)` unchanged, each character mapping to itself. */
  copy(source: string, from: number, to: number): void {
    if (to <= from) return;
    if (this.length + (to - from) > this.starts.length) this.grow(this.length + (to - from));
    for (let k = from; k < to; k += 1) {
      this.starts[this.length] = k;
      this.ends[this.length] = k + 1;
      this.length += 1;
    }
    this.pieces.push(source.slice(from, to));
  }

  done(): MappedText {
    return {
      text: this.pieces.join(''),
      starts: this.starts.subarray(0, this.length),
      ends: this.ends.subarray(0, this.length),
    };
  }

  private grow(needed: number): void {
    const size = Math.max(needed, this.starts.length * 2);
    const starts = new Int32Array(size);
    const ends = new Int32Array(size);
    starts.set(this.starts);
    ends.set(this.ends);
    this.starts = starts;
    this.ends = ends;
  }
}

/** Space, tab, form feed, vertical tab, no-break space. */
function isHorizontalSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 12 || code === 11 || code === 0xa0;
}

/**
 * Collapses each run of horizontal whitespace to one space, drops whitespace (and `\r`) just
 * before a line break or the end, so `a  =\tb  \r\n` and `a = b\n` compare equal.
 */
export function normalizeWhitespace(source: string): MappedText {
  const out = new MappedBuilder(source.length);
  let i = 0;
  let plainFrom = 0;
  while (i < source.length) {
    const code = source.charCodeAt(i);
    const carriage = code === 13 && source.charCodeAt(i + 1) === 10;
    if (!isHorizontalSpace(code) && !carriage) {
      i += 1;
      continue;
    }
    out.copy(source, plainFrom, i);
    let j = i;
    while (
      j < source.length &&
      (isHorizontalSpace(source.charCodeAt(j)) || source.charCodeAt(j) === 13)
    )
      j += 1;
    if (j < source.length && source.charCodeAt(j) !== 10) out.push(' ', i, j);
    i = j;
    plainFrom = j;
  }
  out.copy(source, plainFrom, source.length);
  return out.done();
}

/** Typographic characters models and editors swap in, mapped to their ASCII look-alikes. */
const UNICODE_LOOKALIKES: Readonly<Record<string, string>> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201a': "'",
  '\u201b': "'",
  '\u2032': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u201f': '"',
  '\u2033': '"',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2013': '-',
  '\u2014': '-',
  '\u2015': '-',
  '\u2212': '-',
  '\u2026': '...',
  '\u00a0': ' ',
  '\u202f': ' ',
  '\u3000': ' ',
};

const ZERO_WIDTH = new Set(['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff']);

/**
 * Maps smart quotes, dashes, ellipses and exotic spaces to ASCII, drops zero-width characters,
 * and applies NFKC per code point (full-width letters, ligatures).
 */
export function normalizeUnicode(source: string): MappedText {
  const out = new MappedBuilder(source.length);
  let plainFrom = 0;
  let i = 0;
  while (i < source.length) {
    const code = source.charCodeAt(i);
    if (code < 0x80) {
      i += 1;
      continue;
    }
    out.copy(source, plainFrom, i);
    const ch = String.fromCodePoint(source.codePointAt(i) ?? code);
    const end = i + ch.length;
    if (!ZERO_WIDTH.has(ch)) {
      const mapped = UNICODE_LOOKALIKES[ch] ?? (code >= 0x2000 && code <= 0x200a ? ' ' : undefined);
      out.push(mapped ?? ch.normalize('NFKC'), i, end);
    }
    i = end;
    plainFrom = end;
  }
  out.copy(source, plainFrom, source.length);
  return out.done();
}

const ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '"': '"',
  "'": "'",
  '`': '`',
  '\\': '\\',
};

/**
 * Undoes one level of backslash escaping (`\\n` → newline, `\\"` → `"`), for models that send a
 * JSON- or shell-escaped `old_string`. Returns the input unchanged when it has no escapes.
 */
export function unescapeOnce(text: string): string {
  return text.replace(/\\([ntr"'`\\])/g, (_match, code: string) => ESCAPES[code] ?? code);
}

/** Finds every non-overlapping occurrence of `needle` in `haystack`, as start offsets. */
export function findAll(haystack: string, needle: string): number[] {
  const found: number[] = [];
  if (needle.length === 0) return found;
  let from = 0;
  for (;;) {
    const at = haystack.indexOf(needle, from);
    if (at < 0) return found;
    found.push(at);
    from = at + needle.length;
  }
}

/**
 * Similarity of two strings in [0, 1] by the Dice coefficient over character bigrams: cheap,
 * order-tolerant, good enough to tell "the same block, slightly edited" from "another block".
 */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const counts = new Map<string, number>();
  for (let i = 0; i < a.length - 1; i += 1) {
    const gram = a.slice(i, i + 2);
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  let shared = 0;
  for (let i = 0; i < b.length - 1; i += 1) {
    const gram = b.slice(i, i + 2);
    const left = counts.get(gram) ?? 0;
    if (left > 0) {
      shared += 1;
      counts.set(gram, left - 1);
    }
  }
  return (2 * shared) / (a.length - 1 + (b.length - 1));
}
