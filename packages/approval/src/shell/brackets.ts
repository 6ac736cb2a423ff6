/**
 * Lookups that keep the word reader linear on long input: where each bracket closes, and where
 * the next backtick or backslash is, computed once instead of rescanning the rest of the source.
 */

/**
 * Where each `(` and `{` of a long source closes, computed once (a stack pass) and shared with
 * the readers of its substrings, so nested `$((…` or `${…` cannot rescan the rest of the input
 * at every level.
 */
export class BracketIndex {
  private parens: Int32Array | undefined;
  private braces: Int32Array | undefined;

  constructor(private readonly src: string) {}

  /** The index of the bracket closing the one at `open`, or -1 when it is never closed. */
  close(open: number, opening: number): number {
    if (opening === 40) {
      this.parens ??= this.build(40, 41);
      return this.parens[open] ?? -1;
    }
    this.braces ??= this.build(123, 125);
    return this.braces[open] ?? -1;
  }

  private build(opening: number, closing: number): Int32Array {
    const src = this.src;
    const closes = new Int32Array(src.length).fill(-1);
    const stack: number[] = [];
    for (let i = 0; i < src.length; i += 1) {
      const code = src.charCodeAt(i);
      if (code === opening) stack.push(i);
      else if (code === closing && stack.length > 0) closes[stack.pop() as number] = i;
    }
    return closes;
  }
}

/** A substring's place in a longer source whose {@link BracketIndex} it shares. */
export interface SourceWindow {
  readonly brackets: BracketIndex;
  /** Where the substring starts in the indexed source. */
  readonly offset: number;
}

/**
 * The next index of one character at or after a position, remembering the last answer: a run of
 * lookups from increasing positions (one per backtick substitution) scans the source once.
 */
export class NextIndex {
  private from = -1;
  private at = -1;

  constructor(
    private readonly src: string,
    private readonly char: string,
  ) {}

  /** The first index ≥ `from` holding the character, or the source length. */
  after(from: number): number {
    if (this.from <= from && from <= this.at) return this.at;
    const found = this.src.indexOf(this.char, from);
    this.from = from;
    this.at = found < 0 ? this.src.length : found;
    return this.at;
  }
}
