/** Line-by-line questions on a stream: what the setup wizard asks through. */
import { createInterface } from 'node:readline';
import type { TextSink } from '@hermes/config';

/** Asks one question at a time; `undefined` means the input ended. */
export interface Prompter {
  ask(question: string): Promise<string | undefined>;
  /** Writes a line of text (a note, an error) without waiting for an answer. */
  say(text: string): void;
  close(): void;
}

/**
 * A prompter reading lines from `input` (a terminal or a pipe) and writing questions to
 * `output`. Lines that arrive before a question are queued, so piped answers work.
 */
export function createPrompter(input: NodeJS.ReadableStream, output: TextSink): Prompter {
  const lines: string[] = [];
  const waiting: Array<(line: string | undefined) => void> = [];
  let ended = false;
  const reader = createInterface({ input, terminal: false, crlfDelay: Number.POSITIVE_INFINITY });
  reader.on('line', (line) => {
    const next = waiting.shift();
    if (next) next(line);
    else lines.push(line);
  });
  reader.on('close', () => {
    ended = true;
    for (const next of waiting.splice(0)) next(undefined);
  });
  return {
    ask(question) {
      output.write(question);
      const queued = lines.shift();
      if (queued !== undefined) return Promise.resolve(queued);
      if (ended) return Promise.resolve(undefined);
      return new Promise((resolve) => waiting.push(resolve));
    },
    say: (text) => {
      output.write(`${text}\n`);
    },
    close: () => reader.close(),
  };
}
