/**
 * The waiting animation shown while the model thinks or a tool runs (seed 003, 2.6). It only
 * draws on a terminal; on a pipe it does nothing, so captured output stays clean.
 */
import type { TextSink } from '@hermes/config';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const INTERVAL_MS = 80;

/** A one-line spinner that erases itself when stopped. */
export class Spinner {
  readonly #out: TextSink;
  readonly #enabled: boolean;
  #timer: ReturnType<typeof setInterval> | undefined;
  #frame = 0;
  #label = '';

  /** Draws on `out` only when `enabled` (a terminal). */
  constructor(out: TextSink, enabled: boolean) {
    this.#out = out;
    this.#enabled = enabled;
  }

  /** Whether it is drawing now. */
  get active(): boolean {
    return this.#timer !== undefined;
  }

  /** Starts (or relabels) the animation. */
  start(label: string): void {
    this.#label = label;
    if (!this.#enabled || this.#timer) return;
    this.#draw();
    this.#timer = setInterval(() => this.#draw(), INTERVAL_MS);
    this.#timer.unref?.();
  }

  /** Stops and erases the line. Safe to call when not running. */
  stop(): void {
    if (!this.#timer) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#out.write('\r\u001b[2K');
  }

  #draw(): void {
    const frame = FRAMES[this.#frame % FRAMES.length] ?? '';
    this.#frame += 1;
    this.#out.write(`\r\u001b[2K${frame} ${this.#label}`);
  }
}
