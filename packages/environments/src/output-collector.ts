/** Keeps a bounded head/tail window of streamed text, spilling the full stream to a file. */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** Options of a {@link BoundedOutputCollector}. */
export interface BoundedOutputCollectorOptions {
  /** The most characters {@link BoundedOutputCollector.render} returns, suffix included. */
  readonly maxChars: number;
  /**
   * Where to save the full stream once it overflows, or a function computing that path (called
   * at most once, on the first overflow). Absent: overflow is truncated with no file.
   */
  readonly spillPath?: string | (() => string);
}

/** Options of {@link BoundedOutputCollector.render}. */
export interface RenderOptions {
  /** Status text (exit code, timeout notice) that is always kept whole at the end. */
  readonly suffix?: string;
}

/** Share of the window given to the head; the tail gets the rest, since the end usually matters. */
const HEAD_SHARE = 0.4;

/**
 * Collects a command's output within a fixed budget: the first 40 % and the last 60 % of
 * `maxChars`. Small output costs no file I/O at all; on the first overflow the collector opens the
 * spill file and from then on tees the full stream into it, so the model can read what was cut.
 * Memory stays bounded however much is appended.
 */
export class BoundedOutputCollector {
  readonly maxChars: number;
  readonly #headMax: number;
  readonly #tailMax: number;
  readonly #spillPath: string | (() => string) | undefined;
  /** The whole text while it still fits; after the first overflow, the head only. */
  #head = '';
  /** After the first overflow: the latest text, trimmed back to the tail budget now and then. */
  #tail = '';
  #total = 0;
  #overflowed = false;
  #spillFd: number | undefined;
  #spillFile: string | undefined;

  constructor(options: BoundedOutputCollectorOptions) {
    if (!Number.isInteger(options.maxChars) || options.maxChars < 10) {
      throw new RangeError(`maxChars must be an integer of at least 10, got ${options.maxChars}`);
    }
    this.maxChars = options.maxChars;
    this.#headMax = Math.floor(options.maxChars * HEAD_SHARE);
    this.#tailMax = options.maxChars - this.#headMax;
    this.#spillPath = options.spillPath;
  }

  /** Characters appended so far. */
  get totalChars(): number {
    return this.#total;
  }

  /** Characters held in memory now (at most about twice `maxChars`). */
  get bufferedChars(): number {
    return this.#head.length + this.#tail.length;
  }

  /** True once more than `maxChars` characters were appended. */
  get truncated(): boolean {
    return this.#overflowed;
  }

  /** The spill file's path once it has been created. */
  get spillPath(): string | undefined {
    return this.#spillFile;
  }

  /** Adds `text` to the stream. */
  append(text: string): void {
    if (text.length === 0) return;
    this.#total += text.length;
    if (!this.#overflowed) {
      if (this.#total <= this.maxChars) {
        this.#head += text;
        return;
      }
      this.#overflow(this.#head + text);
      return;
    }
    this.#spill(text);
    this.#tail += text;
    // Trim only when the tail has doubled, so appends stay amortized O(length).
    if (this.#tail.length > 2 * this.#tailMax) this.#tail = this.#tail.slice(-this.#tailMax);
  }

  #overflow(all: string): void {
    this.#overflowed = true;
    this.#openSpill();
    this.#spill(all);
    this.#head = all.slice(0, this.#headMax);
    this.#tail = all.slice(-this.#tailMax);
  }

  #openSpill(): void {
    if (this.#spillPath === undefined) return;
    try {
      const path = typeof this.#spillPath === 'function' ? this.#spillPath() : this.#spillPath;
      mkdirSync(dirname(path), { recursive: true });
      this.#spillFd = openSync(path, 'w', 0o600);
      this.#spillFile = path;
    } catch {
      // A full disk must not break the command; the window is still returned.
      this.#spillFd = undefined;
    }
  }

  #spill(text: string): void {
    if (this.#spillFd === undefined) return;
    try {
      writeSync(this.#spillFd, text);
    } catch {
      this.closeSpill();
    }
  }

  /** Closes the spill file and returns its path, or `undefined` when there was none. */
  closeSpill(): string | undefined {
    if (this.#spillFd !== undefined) {
      try {
        closeSync(this.#spillFd);
      } catch {
        // Already closed by the OS; the path is still valid.
      }
      this.#spillFd = undefined;
    }
    return this.#spillFile;
  }

  /**
   * The collected text within `maxChars`: whole when it fits, else head, an omission notice
   * (naming the spill file) and tail. `suffix` is always kept whole at the end. Progress-bar
   * redraws (`\r` without `\n`) are collapsed to what a terminal would finally show.
   */
  render(options: RenderOptions = {}): string {
    const suffix = options.suffix ?? '';
    const budget = this.maxChars - suffix.length;
    if (budget <= 0) return suffix;
    const whole = this.#overflowed ? undefined : collapseCarriageReturns(this.#head);
    if (whole !== undefined && whole.length <= budget) return whole + suffix;
    const source = this.#overflowed ? { head: this.#head, tail: this.#tail } : splitWhole(whole);
    return this.#renderTruncated(source.head, source.tail, budget) + suffix;
  }

  #renderTruncated(head: string, tail: string, budget: number): string {
    const probe = this.#notice(this.#total);
    const room = Math.max(0, budget - probe.length);
    const headPart = collapseCarriageReturns(head.slice(0, Math.floor(room * HEAD_SHARE)));
    const tailRoom = room - headPart.length;
    const tailPart = tailRoom > 0 ? collapseCarriageReturns(tail.slice(-tailRoom)) : '';
    const omitted = Math.max(0, this.#total - headPart.length - tailPart.length);
    return (headPart + this.#notice(omitted) + tailPart).slice(0, budget);
  }

  #notice(omitted: number): string {
    const where = this.#spillFile ? `; full output saved to ${this.#spillFile}` : '';
    return `\n\n[... ${omitted} characters omitted${where} ...]\n\n`;
  }
}

function splitWhole(text: string | undefined): { head: string; tail: string } {
  return { head: text ?? '', tail: text ?? '' };
}

/**
 * Drops text that a later lone `\r` on the same line would overwrite on a terminal, so
 * progress bars cost one line instead of thousands. `\r\n` line ends are kept.
 */
export function collapseCarriageReturns(text: string): string {
  if (!text.includes('\r')) return text;
  return text.replace(/[^\n]*\r(?!\n)/g, '');
}
