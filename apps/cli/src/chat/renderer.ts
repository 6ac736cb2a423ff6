/**
 * Draws one agent's events: streamed answer text, reasoning dimmed, one line per tool call, a
 * spinner while waiting, and notes for compression, fallback and memory recall. In the REPL
 * everything goes to stdout; for `chat -q` the answer is printed once at the end by the caller
 * and the renderer only reports progress (on stderr).
 */
import type { TextSink } from '@hermes/config';
import type { AgentEvent } from '@hermes/protocol';
import { formatDuration, formatTokens, oneLine, shortArguments, toolEmoji } from './format.js';
import { Spinner } from './spinner.js';
import type { Style } from './style.js';

/** Something that emits agent events (an `Agent`). */
export interface EventSource {
  on(type: 'event', listener: (event: AgentEvent) => void): () => void;
}

/** How a renderer writes. */
export interface RendererOptions {
  readonly out: TextSink;
  readonly style: Style;
  /** Stream the answer and reasoning (REPL). Off for `chat -q`, which prints the answer once. */
  readonly streamText: boolean;
  /** Draw the spinner (terminals only). */
  readonly spinner: boolean;
}

const OUTCOME_MARK = { ok: '✓', error: '✗', cancelled: '⊘ cancelled' } as const;

/** Renders agent events as they arrive. */
export class Renderer {
  readonly #out: TextSink;
  readonly #style: Style;
  readonly #streamText: boolean;
  readonly #spinner: Spinner;
  readonly #calls = new Map<string, string>();
  #atLineStart = true;
  #mode: 'none' | 'reasoning' | 'text' = 'none';

  constructor(options: RendererOptions) {
    this.#out = options.out;
    this.#style = options.style;
    this.#streamText = options.streamText;
    this.#spinner = new Spinner(options.out, options.spinner);
  }

  /** Subscribes to `source`; returns the unsubscribe function. */
  attach(source: EventSource): () => void {
    return source.on('event', (event) => this.handle(event));
  }

  /** Writes a whole line of its own (status notes, usage), after any streamed text. */
  line(text: string): void {
    this.#spinner.stop();
    this.#endLine();
    this.#write(`${text}\n`);
  }

  /** Stops the spinner and ends a half-written line. */
  settle(): void {
    this.#spinner.stop();
    this.#endLine();
    this.#mode = 'none';
  }

  /** Draws one event. */
  handle(event: AgentEvent): void {
    switch (event.type) {
      case 'turn_start':
        this.#mode = 'none';
        this.#spinner.start('thinking…');
        break;
      case 'reasoning_delta':
        this.#stream('reasoning', this.#style.dim(event.delta));
        break;
      case 'text_delta':
        this.#stream('text', event.delta);
        break;
      case 'tool_call_start':
        this.#toolStart(event);
        break;
      case 'tool_call_end':
        this.#toolEnd(event);
        break;
      case 'turn_end':
        this.settle();
        break;
      default: {
        const note = this.#note(event);
        if (note !== undefined) this.line(note);
      }
    }
  }

  /** The status line for compression, fallback, memory recall and errors. */
  #note(event: AgentEvent): string | undefined {
    const s = this.#style;
    switch (event.type) {
      case 'compression_start':
        return s.dim(`🗜️  compressing ${event.messagesBefore} messages (${event.trigger})…`);
      case 'compression_end':
        return s.dim(compressionNote(event));
      case 'fallback_activated':
        return s.yellow(
          `↪ fallback: ${event.from.provider}/${event.from.model} → ${event.to.provider}/${event.to.model} (${oneLine(event.reason, 80)})`,
        );
      case 'approval_resolution':
        if (event.decidedBy !== 'smart') return undefined;
        return (event.decision === 'deny' ? s.yellow : s.dim)(
          `⚖ smart approval ${event.decision === 'deny' ? 'denied' : 'approved'} ${oneLine(event.command ?? '', 60)}: ${oneLine(event.reason ?? '', 100)}`,
        );
      case 'memory_recall':
        return s.dim(`🧠 recalled ${event.chars} characters from ${event.provider}`);
      case 'model_retry':
        return s.yellow(
          `↻ ${event.code}: ${oneLine(event.message, 80)} — retrying in ${(event.delayMs / 1000).toFixed(1)} s (attempt ${event.attempt + 1})`,
        );
      case 'error':
        return s.dim(`⚠ ${event.code}: ${oneLine(event.message, 120)}`);
      default:
        return undefined;
    }
  }

  #toolStart(event: Extract<AgentEvent, { type: 'tool_call_start' }>): void {
    this.#calls.set(event.toolCallId, event.arguments);
    this.#spinner.stop();
    this.#endLine();
    this.#mode = 'none';
    this.#spinner.start(
      `${toolEmoji(event.name)} ${event.name} ${shortArguments(event.arguments)}`,
    );
  }

  #toolEnd(event: Extract<AgentEvent, { type: 'tool_call_end' }>): void {
    const args = shortArguments(this.#calls.get(event.toolCallId) ?? '');
    this.#calls.delete(event.toolCallId);
    const mark = OUTCOME_MARK[event.outcome];
    const outcome =
      event.outcome === 'ok'
        ? this.#style.green(mark)
        : event.outcome === 'error'
          ? this.#style.red(`${mark} ${oneLine(event.preview, 80)}`)
          : this.#style.yellow(mark);
    const parts = [`  ${toolEmoji(event.name)} ${event.name}`];
    if (args) parts.push(this.#style.cyan(args));
    parts.push(this.#style.dim(formatDuration(event.durationMs)), outcome);
    this.line(parts.join('  '));
    this.#spinner.start('thinking…');
  }

  #stream(mode: 'reasoning' | 'text', text: string): void {
    if (!this.#streamText || text === '') return;
    this.#spinner.stop();
    if (this.#mode !== mode && this.#mode !== 'none') this.#endLine();
    this.#mode = mode;
    this.#write(text);
  }

  #endLine(): void {
    if (!this.#atLineStart) this.#write('\n');
  }

  #write(text: string): void {
    if (text === '') return;
    this.#out.write(text);
    this.#atLineStart = text.endsWith('\n');
  }
}

function compressionNote(event: Extract<AgentEvent, { type: 'compression_end' }>): string {
  if (!event.ok) return `🗜️  compression failed: ${oneLine(event.error ?? 'unknown error', 100)}`;
  const warnings = (event.warnings ?? []).map((w) => `\n⚠️  ${oneLine(w, 160)}`).join('');
  return `🗜️  compressed ${event.messagesBefore} → ${event.messagesAfter} messages, ${formatTokens(event.tokensBefore)} → ${formatTokens(event.tokensAfter)} tokens${warnings}`;
}
