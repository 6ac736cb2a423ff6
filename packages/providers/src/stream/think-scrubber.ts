/**
 * Separates inline reasoning blocks (`<think>…</think>` and its variants) from streamed answer
 * text. Some models (and OpenAI-compatible servers in front of them) write their reasoning into
 * the visible content instead of a reasoning field; without this, the user would see it.
 *
 * The scrubber is a left-to-right state machine over the concatenated stream, so what it routes
 * where never depends on how the text was cut into chunks. It holds back only a tail that might
 * still turn into a tag (`<`, `<thi`, `</reason`, …) and releases it as soon as it cannot.
 *
 * Rules (ported from Hermes' stream filter):
 * - Tags are `<think>`, `<thinking>`, `<thought>`, `<reasoning>` and `<REASONING_SCRATCHPAD>`, in
 *   any letter case, with no attributes; their closing forms end a block.
 * - An opening tag starts a block only at the start of a line (nothing but whitespace before it
 *   since the last newline, or since the start of the stream). Mid-line, as in prose that mentions
 *   the tag, it stays visible text.
 * - Inside a block everything is reasoning, other opening tags included; the first closing tag
 *   of any variant ends the block. (A nested block therefore ends early: leaking a little
 *   reasoning is preferred to swallowing the rest of the answer.)
 * - A closing tag outside a block (the model's template opened the block in the prompt) is
 *   dropped. Whitespace right after any closing tag is dropped too, so the answer does not start
 *   with the blank lines that models put after `</think>`.
 * - At the end of the stream ({@link ThinkScrubber.flush}) an unclosed block's content stays
 *   reasoning (the model ran out of tokens while thinking), and a held-back tail is released.
 */

/** The recognized reasoning tag names, lower-case. Matching ignores letter case. */
export const THINK_TAG_NAMES = [
  'think',
  'thinking',
  'thought',
  'reasoning',
  'reasoning_scratchpad',
] as const;

const TAG_NAMES: ReadonlySet<string> = new Set(THINK_TAG_NAMES);
const LONGEST_NAME = Math.max(...THINK_TAG_NAMES.map((name) => name.length));
/** Every non-empty prefix of a tag name, to recognize a tag cut off by the end of a chunk. */
const NAME_PREFIXES: ReadonlySet<string> = new Set(
  THINK_TAG_NAMES.flatMap((name) => Array.from(name, (_, i) => name.slice(0, i + 1))),
);

const GREATER_THAN = 62;
const SLASH = 47;
const UNDERSCORE = 95;
const NEWLINE = 10;

type TagScan =
  | { readonly kind: 'none' }
  /** The text ends inside what may still become an opening and/or closing tag. */
  | { readonly kind: 'partial'; readonly open: boolean; readonly close: boolean }
  | { readonly kind: 'open' | 'close'; readonly length: number };

const NO_TAG: TagScan = { kind: 'none' };
const PARTIAL_EITHER: TagScan = { kind: 'partial', open: true, close: true };
const PARTIAL_OPEN: TagScan = { kind: 'partial', open: true, close: false };
const PARTIAL_CLOSE: TagScan = { kind: 'partial', open: false, close: true };

function isNameChar(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === UNDERSCORE;
}

function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13);
}

/** Reads the reasoning tag, if any, that starts at `text[at]` (which is `<`). */
function scanTag(text: string, at: number): TagScan {
  let i = at + 1;
  if (i === text.length) return PARTIAL_EITHER;
  const close = text.charCodeAt(i) === SLASH;
  if (close && ++i === text.length) return PARTIAL_CLOSE;
  // Every tag name starts with t or r: reject `<div>`, `<3`, `< b` without reading further.
  const first = text.charCodeAt(i) | 0x20;
  if (first !== 116 && first !== 114) return NO_TAG;
  const nameStart = i;
  while (i < text.length && isNameChar(text.charCodeAt(i))) {
    i++;
    if (i - nameStart > LONGEST_NAME) return NO_TAG;
  }
  const name = text.slice(nameStart, i).toLowerCase();
  if (i === text.length) {
    if (!NAME_PREFIXES.has(name)) return NO_TAG;
    return close ? PARTIAL_CLOSE : PARTIAL_OPEN;
  }
  if (text.charCodeAt(i) !== GREATER_THAN || !TAG_NAMES.has(name)) return NO_TAG;
  return { kind: close ? 'close' : 'open', length: i + 1 - at };
}

/** Where a {@link ThinkScrubber} sends what it separates, in stream order. */
export interface ThinkScrubberSink {
  /** Answer text the user may see. Never empty. */
  visible(text: string): void;
  /** Text from inside a reasoning block. Never empty. */
  reasoning(text: string): void;
  /** A reasoning block ended: its closing tag arrived, or `flush` cut it off. */
  reasoningEnd(): void;
}

/**
 * Streaming think-block remover; see the module comment for the rules. Feed it every text
 * fragment with {@link feed}, and call {@link flush} once when the text ends. Runs in time and
 * memory linear in the text: it copies a chunk only when a held tail (at most 23 characters) has
 * to be prepended to it.
 */
export class ThinkScrubber {
  private readonly sink: ThinkScrubberSink;
  /** A tail that may still become a tag; it prefixes the next chunk. */
  private held = '';
  private inBlock = false;
  /** Only whitespace has been visible since the last newline (or the start). */
  private lineBlank = true;
  /** Drop whitespace: a closing tag was just removed. */
  private skipSpace = false;

  constructor(sink: ThinkScrubberSink) {
    this.sink = sink;
  }

  /** True while inside an unclosed reasoning block. */
  get insideBlock(): boolean {
    return this.inBlock;
  }

  /** Processes the next fragment of the text. */
  feed(chunk: string): void {
    if (chunk.length === 0) return;
    const text = this.held.length > 0 ? this.held + chunk : chunk;
    this.held = '';
    let pos = 0;
    while (pos < text.length) {
      pos = this.inBlock ? this.scanBlock(text, pos) : this.scanVisible(text, pos);
    }
  }

  /**
   * Ends the text: releases a held tail (it can no longer become a tag) and closes an unclosed
   * block, whose content stays reasoning. The scrubber is then ready for a new text.
   */
  flush(): void {
    const tail = this.held;
    this.held = '';
    if (this.inBlock) {
      if (tail.length > 0) this.sink.reasoning(tail);
      this.inBlock = false;
      this.sink.reasoningEnd();
    } else if (tail.length > 0) {
      this.sink.visible(tail);
    }
    this.lineBlank = true;
    this.skipSpace = false;
  }

  /** Consumes visible text from `from` up to and including the next tag that acts. */
  private scanVisible(text: string, from: number): number {
    const start = this.skipSpace ? this.skipSpaces(text, from) : from;
    let search = start;
    while (search < text.length) {
      const lt = text.indexOf('<', search);
      if (lt === -1) break;
      const tag = scanTag(text, lt);
      if (tag.kind === 'none' || (tag.kind === 'open' && !this.blankBefore(text, start, lt))) {
        search = lt + (tag.kind === 'open' ? tag.length : 1);
        continue;
      }
      if (tag.kind === 'partial') {
        if (!tag.close && !this.blankBefore(text, start, lt)) break;
        this.emitVisible(text, start, lt);
        this.held = text.slice(lt);
        return text.length;
      }
      this.emitVisible(text, start, lt);
      if (tag.kind === 'open') this.inBlock = true;
      else this.skipSpace = true;
      return lt + tag.length;
    }
    this.emitVisible(text, start, text.length);
    return text.length;
  }

  /** Consumes reasoning from `from` up to and including the closing tag, if it is here. */
  private scanBlock(text: string, from: number): number {
    let search = from;
    for (;;) {
      const lt = text.indexOf('<', search);
      if (lt === -1) break;
      const tag = scanTag(text, lt);
      if (tag.kind === 'close') {
        this.emitReasoning(text, from, lt);
        this.inBlock = false;
        this.skipSpace = true;
        this.sink.reasoningEnd();
        return lt + tag.length;
      }
      if (tag.kind === 'partial' && tag.close) {
        this.emitReasoning(text, from, lt);
        this.held = text.slice(lt);
        return text.length;
      }
      search = lt + 1;
    }
    this.emitReasoning(text, from, text.length);
    return text.length;
  }

  /** Skips whitespace after a closing tag; returns where the kept text starts. */
  private skipSpaces(text: string, from: number): number {
    let i = from;
    while (i < text.length) {
      const code = text.charCodeAt(i);
      if (!isSpace(code)) {
        this.skipSpace = false;
        break;
      }
      if (code === NEWLINE) this.lineBlank = true;
      i++;
    }
    return i;
  }

  /** Whether `text[end]` would sit at the start of a line, given visible text from `start`. */
  private blankBefore(text: string, start: number, end: number): boolean {
    for (let i = end - 1; i >= start; i--) {
      const code = text.charCodeAt(i);
      if (code === NEWLINE) return true;
      if (!isSpace(code)) return false;
    }
    return this.lineBlank;
  }

  private emitVisible(text: string, start: number, end: number): void {
    if (end <= start) return;
    this.lineBlank = this.blankBefore(text, start, end);
    this.sink.visible(start === 0 && end === text.length ? text : text.slice(start, end));
  }

  private emitReasoning(text: string, start: number, end: number): void {
    if (end <= start) return;
    this.sink.reasoning(start === 0 && end === text.length ? text : text.slice(start, end));
  }
}

/** A finished text split into its visible part and its inline reasoning. */
export interface ScrubbedText {
  /** The text with every reasoning block removed. */
  readonly visible: string;
  /** The reasoning blocks' contents, separated by a blank line; `''` when there were none. */
  readonly reasoning: string;
}

/**
 * Applies the {@link ThinkScrubber} rules to a complete string: for non-streamed answers, stored
 * transcripts and compression input.
 */
export function scrubThinkBlocks(text: string): ScrubbedText {
  const visible: string[] = [];
  const blocks: string[] = [];
  let current: string[] = [];
  const scrubber = new ThinkScrubber({
    visible: (piece) => visible.push(piece),
    reasoning: (piece) => current.push(piece),
    reasoningEnd: () => {
      if (current.length > 0) blocks.push(current.join(''));
      current = [];
    },
  });
  scrubber.feed(text);
  scrubber.flush();
  return { visible: visible.join(''), reasoning: blocks.join('\n\n') };
}
