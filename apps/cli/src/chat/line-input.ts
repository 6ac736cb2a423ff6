/**
 * Reads the REPL's input with `node:readline`, from a terminal or a pipe, and turns lines into
 * entries: a trailing `\` continues on the next line, a `"""` line opens and closes a block, and on
 * a terminal a burst of lines arriving together (a paste) becomes one entry. Entries go into an
 * {@link EntryQueue}. History lives in `HERMES_HOME/cli_history`, one JSON string per line.
 */
import { appendFileSync, chmodSync, existsSync, readFileSync } from 'node:fs';
import { createInterface, type Interface } from 'node:readline';
import { EntryQueue } from './entry-queue.js';

/** Lines closer together than this on a terminal are one paste. */
const PASTE_WINDOW_MS = 12;
/** History entries loaded into readline. */
const HISTORY_SIZE = 1000;
const BLOCK_FENCE = '"""';

/** readline's asynchronous completer: `(line, callback)`, the hits and the part they complete. */
export type Completer = (
  line: string,
  callback: (error: null | Error, result: [string[], string]) => void,
) => void;

/** Where the input comes from and how it is shown. */
export interface LineInputOptions {
  readonly input: NodeJS.ReadableStream;
  /** The terminal to echo and prompt on; absent for a pipe. */
  readonly terminal?: NodeJS.WritableStream;
  /** `HERMES_HOME/cli_history`; absent: no history. */
  readonly historyFile?: string;
  /** Ctrl-C typed on the terminal (readline catches it before the process sees SIGINT). */
  readonly onInterrupt?: () => void;
  /** Tab completion on a terminal (`/model <name>`); a pipe never completes. */
  readonly completer?: Completer;
}

/** The REPL's line reader. */
export class LineInput {
  readonly queue = new EntryQueue();
  readonly #rl: Interface;
  readonly #historyFile: string | undefined;
  readonly #terminal: boolean;
  #continued: string[] | undefined;
  #block: string[] | undefined;
  #burst: string[] = [];
  #burstTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: LineInputOptions) {
    this.#terminal = options.terminal !== undefined;
    this.#historyFile = options.historyFile;
    this.#rl = createInterface({
      input: options.input,
      ...(options.terminal ? { output: options.terminal, terminal: true } : { terminal: false }),
      ...(options.terminal && options.completer ? { completer: options.completer } : {}),
      history: this.#terminal ? loadHistory(options.historyFile) : [],
      historySize: HISTORY_SIZE,
      removeHistoryDuplicates: true,
      crlfDelay: Number.POSITIVE_INFINITY,
    });
    this.#rl.on('line', (line) => this.#onLine(line));
    this.#rl.on('close', () => {
      this.#flushBurst();
      // An unfinished continuation or block at the end of input is still sent, not dropped.
      const partial = this.#block ?? this.#continued;
      if (partial?.length) this.queue.push(partial.join('\n'));
      this.#block = undefined;
      this.#continued = undefined;
      this.queue.end();
    });
    if (options.onInterrupt) this.#rl.on('SIGINT', options.onInterrupt);
  }

  /** What is typed on the prompt line now (terminal only). */
  get currentLine(): string {
    return this.#rl.line ?? '';
  }

  /** Shows `text` as the prompt (terminal only; a pipe has no prompt). */
  prompt(text: string): void {
    if (!this.#terminal) return;
    this.#rl.setPrompt(text);
    this.#rl.prompt();
  }

  /** Erases what is typed on the prompt line (Ctrl-C on a non-empty line). */
  clearLine(): void {
    if (!this.#terminal) return;
    this.#rl.write(null, { ctrl: true, name: 'u' });
  }

  /** Appends an entry the user sent to the history file. Failures are ignored: it is a nicety. */
  remember(entry: string): void {
    if (!this.#historyFile || entry.trim() === '') return;
    try {
      const fresh = !existsSync(this.#historyFile);
      appendFileSync(this.#historyFile, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
      if (fresh) chmodSync(this.#historyFile, 0o600);
    } catch {
      // An unwritable home must not break the conversation.
    }
  }

  /** Stops reading. */
  close(): void {
    this.#flushBurst();
    this.#rl.close();
  }

  #onLine(line: string): void {
    if (!this.#terminal) {
      this.#assemble(line);
      return;
    }
    this.#burst.push(line);
    if (this.#burstTimer) clearTimeout(this.#burstTimer);
    this.#burstTimer = setTimeout(() => this.#flushBurst(), PASTE_WINDOW_MS);
  }

  #flushBurst(): void {
    if (this.#burstTimer) clearTimeout(this.#burstTimer);
    this.#burstTimer = undefined;
    const lines = this.#burst;
    this.#burst = [];
    if (lines.length === 0) return;
    // A paste outside a block or continuation arrives whole; inside one, lines keep their meaning.
    if (lines.length > 1 && !this.#block && !this.#continued) this.queue.push(lines.join('\n'));
    else for (const line of lines) this.#assemble(line);
  }

  #assemble(line: string): void {
    if (this.#block) {
      if (line.trim() === BLOCK_FENCE) {
        this.queue.push(this.#block.join('\n'));
        this.#block = undefined;
      } else this.#block.push(line);
      return;
    }
    if (line.trim() === BLOCK_FENCE && !this.#continued) {
      this.#block = [];
      return;
    }
    if (line.endsWith('\\') && !line.endsWith('\\\\')) {
      this.#continued = [...(this.#continued ?? []), line.slice(0, -1)];
      return;
    }
    const parts = [...(this.#continued ?? []), line];
    this.#continued = undefined;
    this.queue.push(parts.join('\n'));
  }
}

function loadHistory(file: string | undefined): string[] {
  if (!file || !existsSync(file)) return [];
  const entries: string[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    try {
      const entry: unknown = JSON.parse(line);
      if (typeof entry === 'string' && !entry.includes('\n')) entries.push(entry);
    } catch {
      // A damaged line is skipped, not fatal.
    }
  }
  return entries.slice(-HISTORY_SIZE).reverse();
}
