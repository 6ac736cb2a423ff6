/**
 * The word-level half of the shell parser: one shell word with its quoting, escapes, `$'…'`,
 * parameter expansions, `$IFS` splitting, and the `$(…)`, backtick, `<(…)` and `$((…))`
 * substitutions inside it. The list-level half ({@link Parser}) supplies nested parsing.
 */
import { decodeAnsiC } from './ansi-c.js';
import type { Script, Substitution } from './ast.js';
import { BracketIndex, NextIndex, type SourceWindow } from './brackets.js';
import { DQ_SPECIAL, isNameChar, isNameStart, special, WORD_SPECIAL } from './chars.js';
import { type Acc, NO_SUBS, newAcc, pushSub, type WordSink } from './word-acc.js';

export type { SourceWindow } from './brackets.js';
export { type Acc, newAcc, type WordSink } from './word-acc.js';

/** Deeper nesting of substitutions and subshells than this marks the script `tooDeep`. */
export const MAX_NESTING = 48;

/** A bracket not closed within this many characters is looked up in a {@link BracketIndex}. */
const SCAN_LIMIT = 2048;

/** Reads words; the list-level parser subclass supplies the nested parses. */
export abstract class WordReader {
  pos = 0;
  tooDeep = false;
  protected readonly len: number;
  private window: SourceWindow | undefined;
  // Shared by every backtick substitution of this source (see `readBacktick`).
  private ticks: NextIndex | undefined;
  private slashes: NextIndex | undefined;

  constructor(
    protected readonly src: string,
    window?: SourceWindow,
  ) {
    this.len = src.length;
    this.window = window;
  }

  /** Parses a nested list from `pos` up to its closing `)`, leaving `pos` after it. */
  protected abstract nestedList(depth: number): Script;
  /** Parses `text` as a script of its own (the body of a backtick substitution). */
  protected abstract parseText(text: string, depth: number): Script;
  /**
   * The substitutions inside double-quote-like `text` (`$((…))`, `${…}` operands); `window`
   * places `text` in the indexed source it was cut from.
   */
  protected abstract scanText(text: string, depth: number, window: SourceWindow): Substitution[];

  /** Reads one shell word into `sink`; an unquoted `$IFS` splits it, so it may yield several. */
  readWords(depth: number, sink: WordSink): void {
    const src = this.src;
    let start = this.pos;
    let acc = newAcc();
    while (this.pos < this.len) {
      const code = src.charCodeAt(this.pos);
      if (!special(WORD_SPECIAL, code)) {
        const from = this.pos;
        while (this.pos < this.len && !special(WORD_SPECIAL, src.charCodeAt(this.pos))) {
          this.pos += 1;
        }
        acc.value += src.slice(from, this.pos);
      } else if (code === 92) {
        if (src.charCodeAt(this.pos + 1) !== 10) {
          acc.value += src.charAt(this.pos + 1);
          acc.quoted = true;
        }
        this.pos += 2;
      } else if (code === 39) {
        const end = src.indexOf("'", this.pos + 1);
        const stop = end < 0 ? this.len : end;
        acc.value += src.slice(this.pos + 1, stop);
        acc.quoted = true;
        this.pos = stop + 1;
      } else if (code === 34) {
        this.pos += 1;
        acc.quoted = true;
        this.readDouble(depth, acc, true);
      } else if (code === 96) this.readBacktick(depth, acc);
      else if (code === 36) {
        if (this.readDollar(depth, acc, false)) {
          this.emit(start, acc, sink);
          acc = newAcc();
          start = this.pos;
        }
      } else if ((code === 60 || code === 62) && src.charCodeAt(this.pos + 1) === 40) {
        const from = this.pos;
        this.pos += 2;
        const script = this.nestedList(depth);
        acc.value += src.slice(from, this.pos);
        acc.dynamic = true;
        pushSub(acc, { kind: 'process', script });
      } else break;
    }
    this.pos = Math.min(this.pos, this.len);
    this.emit(start, acc, sink);
  }

  private emit(start: number, acc: Acc, sink: WordSink): void {
    if (acc.value === '' && !acc.quoted && acc.subs === undefined) return;
    // An unquoted, static word read without shrinking (no line continuation) is its own source.
    const same = !acc.quoted && !acc.dynamic && acc.value.length === this.pos - start;
    sink.add({
      raw: same ? acc.value : this.src.slice(start, this.pos),
      value: acc.value,
      quoted: acc.quoted,
      dynamic: acc.dynamic,
      subs: acc.subs ?? NO_SUBS,
    });
  }

  /** Reads double-quoted text up to the closing quote (or to the end when `closing` is false). */
  readDouble(depth: number, acc: Acc, closing: boolean): void {
    const src = this.src;
    while (this.pos < this.len) {
      const code = src.charCodeAt(this.pos);
      if (!special(DQ_SPECIAL, code)) {
        const from = this.pos;
        while (this.pos < this.len && !special(DQ_SPECIAL, src.charCodeAt(this.pos))) {
          this.pos += 1;
        }
        acc.value += src.slice(from, this.pos);
      } else if (code === 34) {
        this.pos += 1;
        if (closing) return;
        acc.value += '"';
      } else if (code === 92) {
        const next = src.charCodeAt(this.pos + 1);
        if (next === 10) this.pos += 2;
        else if (next === 36 || next === 96 || next === 34 || next === 92) {
          acc.value += src.charAt(this.pos + 1);
          this.pos += 2;
        } else {
          acc.value += '\\';
          this.pos += 1;
        }
      } else if (code === 96) this.readBacktick(depth, acc);
      else this.readDollar(depth, acc, true);
    }
  }

  /** Handles a `$` at `pos`. Returns true when an unquoted `$IFS` splits the word here. */
  private readDollar(depth: number, acc: Acc, inDouble: boolean): boolean {
    const src = this.src;
    const from = this.pos;
    const next = src.charCodeAt(this.pos + 1);
    if (next === 39 && !inDouble) {
      let i = this.pos + 2;
      while (i < this.len && src.charCodeAt(i) !== 39) i += src.charCodeAt(i) === 92 ? 2 : 1;
      acc.value += decodeAnsiC(src.slice(this.pos + 2, Math.min(i, this.len)));
      acc.quoted = true;
      this.pos = i + 1;
    } else if (next === 34 && !inDouble) {
      this.pos += 2;
      acc.quoted = true;
      this.readDouble(depth, acc, true);
    } else if (next === 40 && src.charCodeAt(this.pos + 2) === 40) {
      const end = this.matchParens(this.pos + 1);
      const start = this.pos + 3;
      this.addSubs(acc, this.scanText(src.slice(start, end), depth + 1, this.windowAt(start)));
      this.pos = end;
      acc.value += src.slice(from, end);
      acc.dynamic = true;
    } else if (next === 40) {
      this.pos += 2;
      const script = this.nestedList(depth);
      acc.value += src.slice(from, this.pos);
      acc.dynamic = true;
      pushSub(acc, { kind: 'command', script });
    } else if (next === 123) return this.readBraced(depth, acc, inDouble);
    else if (isNameStart(next)) {
      let i = this.pos + 1;
      while (i < this.len && isNameChar(src.charCodeAt(i))) i += 1;
      this.pos = i;
      if (i - from === 4 && src.startsWith('IFS', from + 1)) return this.ifs(acc, inDouble);
      acc.value += src.slice(from, i);
      acc.dynamic = true;
    } else if (
      next === 64 ||
      next === 42 ||
      next === 35 ||
      next === 63 ||
      next === 33 ||
      (next >= 48 && next <= 57) ||
      next === 36 ||
      next === 45
    ) {
      acc.value += src.slice(from, from + 2);
      acc.dynamic = true;
      this.pos += 2;
    } else {
      acc.value += '$';
      this.pos += 1;
    }
    return false;
  }

  /** `${…}` at `pos`: `${IFS}` splits like `$IFS`; other operands may hold substitutions. */
  private readBraced(depth: number, acc: Acc, inDouble: boolean): boolean {
    const src = this.src;
    const from = this.pos;
    const end = this.matchBraces(this.pos + 1);
    const innerStart = this.pos + 2;
    const innerEnd = Math.max(innerStart, end - 1);
    this.pos = end;
    // `^IFS(?:$|[^A-Za-z0-9_])` on the inner text, without slicing it first.
    if (src.startsWith('IFS', innerStart) && innerStart + 3 <= innerEnd) {
      if (innerStart + 3 === innerEnd || !isNameChar(src.charCodeAt(innerStart + 3))) {
        return this.ifs(acc, inDouble);
      }
    }
    const inner = src.slice(innerStart, innerEnd);
    this.addSubs(acc, this.scanText(inner, depth + 1, this.windowAt(innerStart)));
    acc.value += src.slice(from, end);
    acc.dynamic = true;
    return false;
  }

  private ifs(acc: Acc, inDouble: boolean): boolean {
    if (inDouble) acc.value += ' ';
    return !inDouble;
  }

  private addSubs(acc: Acc, subs: Substitution[]): void {
    for (const sub of subs) {
      if (sub.script.tooDeep) this.tooDeep = true;
      pushSub(acc, sub);
    }
  }

  private readBacktick(depth: number, acc: Acc): void {
    const src = this.src;
    let i = this.pos + 1;
    let inner = '';
    this.ticks ??= new NextIndex(src, '`');
    this.slashes ??= new NextIndex(src, '\\');
    while (i < this.len && src.charCodeAt(i) !== 96) {
      if (src.charCodeAt(i) === 92 && i + 1 < this.len) {
        const escaped = src.charCodeAt(i + 1);
        // \` \\ \$ lose their backslash inside backticks; other escapes keep it.
        inner +=
          escaped === 96 || escaped === 92 || escaped === 36
            ? src.charAt(i + 1)
            : src.slice(i, i + 2);
        i += 2;
        continue;
      }
      // Copy up to the next backtick or backslash; a lone backslash at the very end is literal,
      // and every step makes progress.
      const end = Math.max(Math.min(this.ticks.after(i), this.slashes.after(i)), i + 1);
      inner += src.slice(i, end);
      i = end;
    }
    const script = this.parseText(inner, depth + 1);
    if (script.tooDeep) this.tooDeep = true;
    acc.value += src.slice(this.pos, Math.min(i + 1, this.len));
    acc.dynamic = true;
    pushSub(acc, { kind: 'command', script });
    this.pos = i + 1;
  }

  /** The index just past the `)` matching the `(` at `open`, counting nested parentheses. */
  protected matchParens(open: number): number {
    return this.matchPair(open, 40, 41);
  }

  private matchBraces(open: number): number {
    return this.matchPair(open, 123, 125);
  }

  /** The shared bracket index, seen from `start` in this reader's source. */
  private windowAt(start: number): SourceWindow {
    this.window ??= { brackets: new BracketIndex(this.src), offset: 0 };
    return { brackets: this.window.brackets, offset: this.window.offset + start };
  }

  /**
   * The index just past the bracket closing the one at `open`, or the end. A short scan first;
   * past {@link SCAN_LIMIT} characters, the source's bracket index answers instead, so repeated
   * long searches (`$(($((…` nested many levels) cost one pass in all.
   */
  private matchPair(open: number, opening: number, closing: number): number {
    if (this.window === undefined) {
      const src = this.src;
      const stop = Math.min(this.len, open + SCAN_LIMIT);
      let level = 0;
      for (let i = open; i < stop; i += 1) {
        const code = src.charCodeAt(i);
        if (code === opening) level += 1;
        else if (code === closing) {
          level -= 1;
          if (level === 0) return i + 1;
        }
      }
      if (stop === this.len) return this.len;
      this.window = { brackets: new BracketIndex(src), offset: 0 };
    }
    const { brackets, offset } = this.window;
    // The close found in the whole source is this substring's close only if it lies inside.
    const close = brackets.close(open + offset, opening) - offset;
    return close >= 0 && close < this.len ? close + 1 : this.len;
  }
}
