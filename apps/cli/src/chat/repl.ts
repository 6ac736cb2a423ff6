/**
 * The interactive loop of `hermes chat`. One entry at a time: a slash command, or a message that
 * starts a turn. While a turn runs, type-ahead on a terminal redirects the model (falling back to
 * a steer, then to the queue); from a pipe, entries simply wait their turn, so a scripted session
 * reads top to bottom. Ctrl-C interrupts the running turn; a second Ctrl-C, or one at an empty
 * prompt, leaves.
 */
import type { TextSink } from '@hermes/config';
import type { TurnResult } from '@hermes/loop';
import { addUsage, emptyUsage, type Usage } from '@hermes/protocol';
import type { ChatSession } from './chat-session.js';
import { NO_ENTRY } from './entry-queue.js';
import { oneLine, usageLine } from './format.js';
import type { LineInput } from './line-input.js';
import type { Renderer } from './renderer.js';
import { runSlashCommand } from './slash-commands.js';
import type { Style } from './style.js';
import { turnFailureLine } from './turn-outcome.js';

/** What the REPL works with. */
export interface ReplOptions {
  readonly session: ChatSession;
  readonly input: LineInput;
  readonly renderer: Renderer;
  readonly out: TextSink;
  readonly style: Style;
  /** `redirect`: type-ahead corrects the running turn (terminals). `queue`: it waits (pipes). */
  readonly typeAhead: 'redirect' | 'queue';
  /** Whether to draw a prompt (terminals). */
  readonly terminal: boolean;
}

/** Totals over this run's turns, for `/usage`. */
export interface RunTotals {
  usage: Usage;
  costUsd: number;
  apiCalls: number;
  turns: number;
}

/** The REPL. `run()` resolves to the exit code. */
export class Repl {
  readonly options: ReplOptions;
  readonly totals: RunTotals = { usage: emptyUsage(), costUsd: 0, apiCalls: 0, turns: 0 };
  /** A `/title` given before the session exists, applied after the first turn. */
  pendingTitle: string | undefined;
  readonly #quit = new AbortController();
  readonly #deferred: string[] = [];
  #running = false;
  #interrupted = false;
  #exitCode = 0;
  #detach: () => void;

  constructor(options: ReplOptions) {
    this.options = options;
    this.#detach = options.renderer.attach(options.session.agent);
  }

  get session(): ChatSession {
    return this.options.session;
  }

  /** Writes one line of REPL output. */
  say(text: string): void {
    this.options.renderer.line(text);
  }

  /** Reads and handles entries until `/quit`, Ctrl-C at an empty prompt, or the end of input. */
  async run(): Promise<number> {
    while (!this.#quit.signal.aborted) {
      const entry = this.#deferred.shift() ?? (await this.#nextEntry());
      if (entry === undefined) break;
      await this.handle(entry);
    }
    this.#detach();
    return this.#exitCode;
  }

  /** Handles one entry: a slash command or a message. */
  async handle(entry: string): Promise<void> {
    const text = entry.trim();
    if (text === '') return;
    this.options.input.remember(entry);
    if (text.startsWith('/')) {
      const message = await runSlashCommand(this, text);
      if (message !== undefined) await this.runTurn(message);
      return;
    }
    await this.runTurn(entry);
  }

  /** Leaves the REPL after the current entry. */
  quit(code = 0): void {
    this.#exitCode = code;
    this.#quit.abort();
  }

  /** Swaps in another session's agent (or a new session), re-attaching the display. */
  async switchSession(sessionId: string | undefined): Promise<void> {
    this.#detach();
    const agent = await this.session.replace(sessionId);
    this.#detach = this.options.renderer.attach(agent);
  }

  /** Ctrl-C: interrupt the running turn; a second one (or one at an empty prompt) leaves. */
  interrupt(): void {
    if (this.#running) {
      if (this.#interrupted) {
        this.say(this.options.style.dim('Exiting.'));
        this.quit(130);
        return;
      }
      this.#interrupted = true;
      this.session.agent.interrupt();
      this.say(this.options.style.yellow('⚡ Interrupting… (Ctrl-C again to quit)'));
      return;
    }
    if (this.options.input.currentLine !== '') {
      this.options.input.clearLine();
      return;
    }
    this.say('');
    this.quit(0);
  }

  /** Runs one turn and reports how it ended. */
  async runTurn(text: string): Promise<TurnResult | undefined> {
    const { session, renderer, style } = this.options;
    this.#running = true;
    this.#interrupted = false;
    const pump = new AbortController();
    if (this.options.typeAhead === 'redirect') void this.#pumpTypeAhead(pump.signal);
    let result: TurnResult | undefined;
    try {
      // An MCP server's tools changed (list_changed, a reconnect, /reload-mcp): the next turn's
      // agent is built with the new list, on the same session.
      if (session.setup.mcp?.stale) await this.switchSession(session.agent.sessionId);
      const turn = this.session.agent.runConversation(text);
      result = await raceQuit(turn, this.#quit.signal);
    } catch (error) {
      renderer.line(
        style.red(`✗ ${oneLine(error instanceof Error ? error.message : String(error), 200)}`),
      );
    } finally {
      pump.abort();
      this.#running = false;
    }
    if (result) await this.#report(result);
    return result;
  }

  async #report(result: TurnResult): Promise<void> {
    const { renderer, style } = this.options;
    renderer.settle();
    this.totals.usage = addUsage(this.totals.usage, result.usage);
    this.totals.costUsd += result.costUsd;
    this.totals.apiCalls += result.apiCalls;
    this.totals.turns += 1;
    if (result.interrupted) renderer.line(style.yellow('⚡ Interrupted.'));
    else if (result.failed) {
      const baseUrl = this.session.setup.config.provider?.baseUrl;
      renderer.line(style.red(`✗ ${turnFailureLine(result, baseUrl ? { baseUrl } : {})}`));
    }
    if (result.pendingSteer)
      renderer.line(style.dim(`(not delivered: ${oneLine(result.pendingSteer, 80)})`));
    renderer.line(style.dim(`  ↳ ${usageLine(result.usage, result.costUsd, result.apiCalls)}`));
    if (this.pendingTitle && result.sessionId) {
      await this.session.store.updateSession(result.sessionId, { title: this.pendingTitle });
      this.pendingTitle = undefined;
    }
  }

  async #nextEntry(): Promise<string | undefined> {
    this.options.input.prompt(this.options.style.bold('❯ '));
    const entry = await this.options.input.queue.next(this.#quit.signal);
    return entry === NO_ENTRY ? undefined : entry;
  }

  /** While a turn runs on a terminal: typed text corrects it; `/stop` and `/steer` act at once. */
  async #pumpTypeAhead(signal: AbortSignal): Promise<void> {
    const { queue } = this.options.input;
    for (;;) {
      const entry = await queue.next(signal);
      if (entry === NO_ENTRY) return;
      const text = entry.trim();
      const agent = this.session.agent;
      if (text === '/stop') this.interrupt();
      else if (text.startsWith('/steer ')) this.#steer(text.slice(7));
      else if (text.startsWith('/') || text === '') this.#deferred.push(entry);
      else if (agent.redirect(text)) this.say(this.options.style.dim('↪ redirected'));
      else this.#steer(text);
    }
  }

  #steer(text: string): void {
    if (this.session.agent.steer(text))
      this.say(this.options.style.dim('↪ noted; the model sees it at its next step'));
    else this.#deferred.push(text);
  }
}

/** The turn's result, or undefined when the user forced an exit before it ended. */
async function raceQuit(
  turn: Promise<TurnResult>,
  quit: AbortSignal,
): Promise<TurnResult | undefined> {
  if (quit.aborted) return undefined;
  return new Promise((resolve, reject) => {
    const onQuit = (): void => resolve(undefined);
    quit.addEventListener('abort', onQuit, { once: true });
    turn.then(
      (value) => {
        quit.removeEventListener('abort', onQuit);
        resolve(value);
      },
      (error: unknown) => {
        quit.removeEventListener('abort', onQuit);
        reject(error);
      },
    );
  });
}
