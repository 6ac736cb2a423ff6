/** Line-by-line questions on a stream: what the setup wizard asks through. */
import { createInterface } from 'node:readline';
import type { TextSink } from '@hermes/config';

/** Asks one question at a time; `undefined` means the input ended. */
export interface Prompter {
  ask(question: string): Promise<string | undefined>;
  /**
   * Like {@link ask}, for a secret: on a terminal the answer is not echoed (backspace still
   * edits it, Ctrl-C still interrupts). Piped input is not echoed anyway.
   */
  askSecret(question: string): Promise<string | undefined>;
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
  const ask = (question: string): Promise<string | undefined> => {
    output.write(question);
    const queued = lines.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (ended) return Promise.resolve(undefined);
    return new Promise((resolve) => waiting.push(resolve));
  };
  return {
    ask,
    async askSecret(question) {
      const tty = input as Partial<Pick<NodeJS.ReadStream, 'isTTY' | 'setRawMode'>>;
      if (tty.isTTY !== true || typeof tty.setRawMode !== 'function') return ask(question);
      // Raw mode turns the terminal's echo off; the line still arrives through `reader`.
      const interrupt = (chunk: Buffer | string) => {
        if (!String(chunk).includes(CTRL_C)) return;
        restore();
        process.kill(process.pid, 'SIGINT');
      };
      const restore = () => {
        input.off('data', interrupt);
        tty.setRawMode?.(false);
        output.write('\n');
      };
      tty.setRawMode(true);
      input.on('data', interrupt);
      const answer = await ask(question);
      restore();
      return answer === undefined ? undefined : applyBackspaces(answer);
    },
    say: (text) => {
      output.write(`${text}\n`);
    },
    close: () => reader.close(),
  };
}

const CTRL_C = '\u0003';

/** What a raw-mode line means once its backspaces (DEL or BS) have erased what they follow. */
export function applyBackspaces(line: string): string {
  const kept: string[] = [];
  for (const char of line) {
    if (char === '\u007f' || char === '\b') kept.pop();
    else kept.push(char);
  }
  return kept.join('');
}
