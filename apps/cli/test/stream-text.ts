/**
 * A child process's output as text, with waits that resolve the moment the awaited text arrives
 * (on the stream's own `data` event, not a polling clock). A wait fails as soon as the stream
 * ends without the text, or after a generous backstop, with everything printed so far.
 */

/** How many times `needle` occurs in `haystack`. */
export function occurrences(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

/** Options of {@link StreamText.waitFor}. */
export interface WaitOptions {
  /** How many occurrences to wait for (default 1). */
  readonly count?: number;
  /** The backstop (default 60 s): only a hung process should ever reach it. */
  readonly timeoutMs?: number;
}

/** Collects one readable stream's text. */
export class StreamText {
  #text = '';
  #ended = false;
  readonly #wake = new Set<() => void>();
  /** Extra context for failure messages (e.g. the other stream's text). */
  readonly #context: () => string;

  constructor(stream: NodeJS.ReadableStream, context: () => string = () => '') {
    this.#context = context;
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      this.#text += chunk;
      this.#notify();
    });
    stream.on('end', () => {
      this.#ended = true;
      this.#notify();
    });
  }

  /** Everything received so far. */
  get text(): string {
    return this.#text;
  }

  /** Resolves once the text holds `needle` `count` times. */
  waitFor(needle: string, { count = 1, timeoutMs = 60_000 }: WaitOptions = {}): Promise<void> {
    return new Promise((resolve, reject) => {
      const done = (error?: Error): void => {
        this.#wake.delete(check);
        clearTimeout(timer);
        if (error) reject(error);
        else resolve();
      };
      const failure = (why: string): Error =>
        new Error(
          `${why} ${JSON.stringify(needle)} ×${count}\n--- output:\n${this.#text}${this.#context()}`,
        );
      const check = (): void => {
        if (occurrences(this.#text, needle) >= count) done();
        else if (this.#ended) done(failure('the stream ended without'));
      };
      const timer = setTimeout(() => done(failure(`no sign after ${timeoutMs} ms of`)), timeoutMs);
      this.#wake.add(check);
      check();
    });
  }

  #notify(): void {
    for (const check of [...this.#wake]) check();
  }
}
