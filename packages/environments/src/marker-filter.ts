/**
 * Separates the wrapper's control records from a command's standard output. The wrapper script
 * prints records such as the shell's pid and its final working directory framed by a random
 * marker; everything else passes through untouched.
 */

/** A record the wrapper printed: `P` (shell pid) or `C` (working directory at exit). */
export interface MarkerRecord {
  readonly kind: string;
  readonly value: string;
}

/** A record longer than this is not ours: pass it through as text rather than buffer forever. */
const MAX_RECORD_CHARS = 16_384;

/** Streams text through, pulling out `<marker><kind><value><marker>` records. */
export class MarkerFilter {
  readonly #marker: string;
  readonly #emit: (text: string) => void;
  readonly #onRecord: (record: MarkerRecord) => void;
  #pending = '';

  constructor(
    marker: string,
    emit: (text: string) => void,
    onRecord: (record: MarkerRecord) => void,
  ) {
    this.#marker = marker;
    this.#emit = emit;
    this.#onRecord = onRecord;
  }

  /** Feeds the next piece of the stream. */
  push(text: string): void {
    let buffer = this.#pending + text;
    const marker = this.#marker;
    for (;;) {
      const start = buffer.indexOf(marker);
      if (start < 0) {
        const keep = partialMarkerLength(buffer, marker);
        this.#emit(buffer.slice(0, buffer.length - keep));
        this.#pending = buffer.slice(buffer.length - keep);
        return;
      }
      if (start > 0) this.#emit(buffer.slice(0, start));
      const end = buffer.indexOf(marker, start + marker.length);
      if (end < 0) {
        if (buffer.length - start > MAX_RECORD_CHARS) {
          this.#emit(buffer.slice(start));
          this.#pending = '';
        } else {
          this.#pending = buffer.slice(start);
        }
        return;
      }
      const body = buffer.slice(start + marker.length, end);
      this.#onRecord({ kind: body.slice(0, 1), value: body.slice(1) });
      buffer = buffer.slice(end + marker.length);
    }
  }

  /** Flushes whatever is held back: the stream ended mid-record, so it was just text. */
  end(): void {
    if (this.#pending) this.#emit(this.#pending);
    this.#pending = '';
  }
}

/** The length of the longest end of `text` that could be the start of `marker`. */
function partialMarkerLength(text: string, marker: string): number {
  for (let k = Math.min(marker.length - 1, text.length); k > 0; k--) {
    if (text.endsWith(marker.slice(0, k))) return k;
  }
  return 0;
}
